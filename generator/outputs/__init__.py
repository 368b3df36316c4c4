"""A run's output files: safe file names, atomic writes, and the output set written all or nothing.

An :class:`OutputSet` collects every file of a run as bytes, then commits them as one set (:mod:`.outputset`):
its plan goes into the folder's journal before anything is written (:mod:`.journal`), each new file to a
temporary named as no user names a file (``.NAME.paddock-<16 random hex digits>.part``, :mod:`.files`), each old
one aside to a backup named the same way (``….old``), and the commit point is marked. A failure rolls everything
back; a run killed at any point is rolled back (or finished) by the next run into the folder. Only Paddock's own
files are ever removed: a temporary or backup only if this folder's journal named it, a stale file of a job's or a
killed run's new file only if it holds the digest Paddock recorded, keyed with this user's key (:mod:`.digests`),
so a forged manifest or journal matches nothing. :func:`atomic_write` writes one file (a temporary, then a rename).

Output locations the user got wrong (``--out`` a file, a read-only or full disk, a name too long …) are an
:class:`~generator.errors.InputError` (exit 2) naming the path and the cause.
"""

from __future__ import annotations

from .digests import digest
from .files import atomic_write, output_error
from .journal import DONE, JOURNAL, recover
from .names import inside, name_key, safe_name
from .outputset import MANIFEST, OutputSet

__all__ = [
    "DONE",
    "JOURNAL",
    "MANIFEST",
    "OutputSet",
    "atomic_write",
    "digest",
    "inside",
    "name_key",
    "output_error",
    "recover",
    "safe_name",
]
