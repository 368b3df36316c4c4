"""Warnings a composer raises when something drew, but not as well as it should (text shrunk below its floor, a
label with no free room …). The CLI prints each as one ``paddock: warning:`` line; code can catch them."""

from __future__ import annotations

import warnings


class LayoutWarning(UserWarning):
    """Something drew, but not as well as it should."""


def warn(message: str) -> None:
    warnings.warn(LayoutWarning(message), stacklevel=2)
