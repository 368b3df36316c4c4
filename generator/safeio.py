"""Moved: bounded reading of a user's file is :mod:`generator.inputs`, the output set (atomic writes, safe names)
:mod:`generator.outputs`. Import from those.

These names stay here only for the callers in modules being changed on other branches while issue 26 is worked
on (``csvfast``, ``specs``, ``pipeline``, ``track/``, ``writers/__init__``): nothing else is defined here, and
once those import from the new modules this file goes.
"""

from .inputs import decode_text, open_regular, read_open, read_text
from .outputs import OutputSet, atomic_write, safe_name

__all__ = ["OutputSet", "atomic_write", "decode_text", "open_regular", "read_open", "read_text", "safe_name"]
