"""An output set: a run's files committed all or nothing, and the folder's manifest of what each job wrote.

Each output folder keeps a manifest (``.paddock-manifest.json``) of the files each *job* wrote (a command and
what it made: ``pack formula-d: formula-d/formula-d-print``, see :func:`generator.pipeline.job_name`), each with
its keyed digest (:mod:`generator.outputs.digests`); a later run of the same job removes the files it wrote before
and no longer writes (old tiles, extra scorecards) — and nothing else: a file that is not in the job's list, whose
content changed since Paddock wrote it, or that another job lists as its own, is never touched, and a manifest
Paddock did not write (its digests not made with this user's key) matches no file at all.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from ..errors import InputError
from . import files, journal
from .digests import digest, file_digest
from .files import short
from .names import inside, name_key

MANIFEST = ".paddock-manifest.json"
#: The largest manifest read back (a folder of many jobs' files, ~100 bytes a file).
MAX_MANIFEST_BYTES = 4 * 1024 * 1024
#: The most files one job's entry may list (more, and it is not what Paddock wrote: none of it is removed).
MAX_JOB_FILES = 5000


def _plain(rel: str) -> bool:
    """A manifest's file name as Paddock writes them: a relative path without '..'."""
    p = Path(rel)
    return bool(rel) and not p.is_absolute() and not p.anchor and ".." not in p.parts and "\0" not in rel


def _command(job: str | None) -> str:
    """The command a manifest's job names (``pack formula-d`` of ``pack formula-d: formula-d/…``), or ''."""
    command, sep, _ = (job or "").partition(": ")
    return command if sep else ""


class OutputSet:
    """Files to write under one folder, committed together once everything has rendered.

    ``job`` names what wrote them (a pack, ``cars``, a board …): the folder's manifest remembers each job's
    files so a later run of the same job removes the ones it no longer writes."""

    def __init__(self, root: str | Path, job: str | None = None) -> None:
        self.root = Path(root)
        self.job = job
        self.files: dict[Path, bytes] = {}
        self._keys: dict[str, str] = {}

    def add(self, relative: str, data: bytes, source: str | None = None) -> Path:
        """Add one file; ``source`` says what it is ("the sheet 'Qualifying'"), for the message when two outputs
        would land on one file."""
        path = inside(self.root, relative)
        rel = path.relative_to(self.root).as_posix()
        key = name_key(rel)
        this = source or short(relative)
        if key in self._keys:
            first = self._keys[key]
            said = f"{first} and {this}" if first != this else f"{first}, twice"
            raise InputError(
                f"two outputs of this run would both be written to {short(rel)} ({said})",
                hint="give the sheets, drivers or circuits names that differ in more than case and punctuation",
            )
        self._keys[key] = this
        self.files[path] = data
        return path

    # -- the manifest

    def _manifest(self) -> dict:
        """``{job: {file: digest}}`` from the folder's manifest (nothing if it is missing, a link, too large or
        not what Paddock writes; a job listing more than :data:`MAX_JOB_FILES` files is left out)."""
        path = self.root / MANIFEST
        try:
            if not files.regular(path) or path.stat().st_size > MAX_MANIFEST_BYTES:
                return {}
            jobs = json.loads(path.read_text(encoding="utf-8")).get("jobs", {})
            return {
                str(k): {str(f): d for f, d in v.items() if isinstance(d, str)}
                for k, v in jobs.items()
                if isinstance(v, dict) and len(v) <= MAX_JOB_FILES
            }
        except (OSError, ValueError, AttributeError, TypeError, RecursionError):
            return {}

    def _stale(self, jobs: dict) -> list[Path]:
        """Files this job wrote last time, does not write now, that still hold what Paddock wrote — and that no
        other job lists as its own with that content (two commands that write one file share it: the one that
        stops writing it leaves it to the other)."""
        if self.job is None:
            return []
        now = {p.relative_to(self.root).as_posix() for p in self.files}
        others = {(f, d) for job, listed in jobs.items() if job != self.job for f, d in listed.items()}
        out = []
        for rel, recorded in sorted(jobs.get(self.job, {}).items()):
            if rel in now or rel in (MANIFEST, journal.JOURNAL, journal.DONE) or (rel, recorded) in others:
                continue
            if not _plain(rel):
                continue
            try:
                path = inside(self.root, rel)
            except InputError:
                continue
            if path.relative_to(self.root).as_posix() == rel and file_digest(path) == recorded:
                out.append(path)
        return out

    def _refuse_others(self, jobs: dict) -> None:
        """Refuse (exit 2, before anything is written) to replace a file another command wrote here and that still
        holds what it wrote, with other content: ``paddock track calibration.yaml`` would replace ``paddock
        calibrate``'s calibration.pdf, and the pack whose print PDF it belongs to would no longer match it. The
        same command run again, or two commands writing the same bytes, replace nothing of another's."""
        mine = _command(self.job)
        if not mine:
            return
        for path, data in self.files.items():
            rel = path.relative_to(self.root).as_posix()
            for job, listed in jobs.items():
                theirs = _command(job)
                recorded = listed.get(rel)
                if not theirs or theirs == mine or recorded is None or recorded == digest(data):
                    continue
                if file_digest(path) != recorded:
                    continue  # changed since that command wrote it: not that command's file any more
                raise InputError(
                    f"{short(rel)} in {short(str(self.root))} is what 'paddock {theirs}' wrote there; this "
                    f"'paddock {mine}' would replace it with another file",
                    hint="write into another folder (--out DIR), or move that file out of this one first",
                )

    def _jobs_after(self, jobs: dict, digests: dict[Path, str | None]) -> dict:
        """The manifest's jobs once this run is committed: this job's files now; every other job's as they were,
        less the files no longer there (a job none of whose files is left is dropped)."""
        root = self.root
        out = {}
        for job, listed in jobs.items():
            kept = {f: d for f, d in listed.items() if _plain(f) and os.path.lexists(root / f)}
            if kept and job != self.job:
                out[job] = kept
        out[self.job] = {p.relative_to(root).as_posix(): digests[p] for p in self.files}
        return out

    # -- the commit

    def commit(self) -> list[Path]:
        """Write every file as one set; return the paths written.

        1. the plan — each target, its temporary ``.NAME.paddock-<random>.part``, its backup ``….old`` if an old
           file is there — goes into the folder's journal (:mod:`generator.outputs.journal`);
        2. every new file is written to its temporary and flushed to disk;
        3. each old target (and each stale file) is moved to its backup and the temporary renamed into place;
        4. the commit point is marked; the backups, the journal and the mark are removed.

        A failure at any step rolls back what was done: every target is the old file again, no temporary is
        left and no folder the run created stays behind; a run killed at any step is rolled back (or, past 4's
        mark, finished) by the next run into the folder. An advisory lock keeps two runs from committing into
        one folder at once."""
        root = self.root
        files.check_folder(root)
        for path in self.files:
            files.check_target(path)
        created: list[Path] = []
        temps: list[tuple[Path, Path]] = []
        done: list[tuple[Path, Path | None]] = []  # (target, backup) moved into place so far
        aside: list[tuple[Path, Path]] = []  # (stale file, backup)
        planned = False
        lock = None
        current: Path = root
        try:
            files.mkdirs(root, created)
            lock = journal.Lock(root)
            journal.recover(root)
            jobs = self._manifest()
            self._refuse_others(jobs)
            stale = self._stale(jobs)
            blobs = dict(self.files)
            digests = {p: digest(d) for p, d in self.files.items()}  # what the manifest and the journal record
            if self.job is not None:
                jobs = self._jobs_after(jobs, digests)
                blobs[root / MANIFEST] = (
                    json.dumps({"paddock": 2, "jobs": jobs}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
                ).encode("utf-8")
                digests[root / MANIFEST] = digest(blobs[root / MANIFEST])
            for path in blobs:
                current = path
                files.mkdirs(path.parent, created)
            old = {p: files.temp_name(p, "old") for p in blobs if os.path.lexists(p)}
            plan = [(p, files.temp_name(p, "part"), old.get(p)) for p in blobs]
            stale_plan = [(p, files.temp_name(p, "old")) for p in stale]
            current = root / journal.JOURNAL
            journal.write(root, plan, stale_plan, digests)  # before any temporary exists
            planned = True
            for path, tmp, _ in plan:
                current = path
                files.write_new(tmp, blobs[path])
                temps.append((path, tmp))
            try:
                files.sync_all([tmp for _, tmp in temps])  # every file on disk before any is moved into place
            except OSError as err:
                current = temps[getattr(err, "paddock_index", 0)][0]
                raise
            for path, tmp, backup in plan:
                current = path
                if backup is not None:
                    os.replace(path, backup)
                done.append((path, backup))
                os.replace(tmp, path)
            for path, backup in stale_plan:
                current = path
                os.replace(path, backup)
                aside.append((path, backup))
            current = root / journal.DONE
            journal.mark_done(root)  # the commit point: from here on a later run keeps the new set
        except BaseException as err:
            _rollback(done, aside, temps)
            if planned:
                journal.finish(root)
            files.remove_created(created)
            if lock:
                lock.release()
            if isinstance(err, OSError):
                raise files.output_error(err, current) from None
            raise
        for _, backup in done + aside:
            if backup is not None:
                files.discard(backup)
        journal.finish(root)
        lock.release()
        return [p for p, _ in temps if p.name != MANIFEST or p.parent != root]


def _rollback(done, aside, temps) -> None:
    """Put every old file back, remove every new one and every temporary (best effort: each step on its own)."""
    for path, backup in reversed(aside):
        with contextlib.suppress(OSError):
            os.replace(backup, path)
    for path, backup in reversed(done):
        with contextlib.suppress(OSError):
            if backup is not None:
                if os.path.lexists(backup):
                    os.replace(backup, path)
            else:
                os.unlink(path)
    for _, tmp in temps:
        files.discard(tmp)
