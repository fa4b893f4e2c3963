"""numba's compiler, with its machine code kept on disk where there is a folder for it.

``njit(cache=True)`` keeps a kernel's machine code beside its module (``__pycache__``) or,
where that folder is read-only (an installation owned by another user), in the user's cache
folder (``~/.cache/numba``, or ``$NUMBA_CACHE_DIR``): a fresh process then loads it instead of
compiling again (a second or two a kernel). Where neither can be written numba refuses to
cache, and raises as the function is decorated, so the package would not even import: the
kernel is then compiled in each process instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numba import njit

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled(**options: Any) -> Callable[[Function], Function]:
    """``numba.njit(cache=True, **options)``, or without the cache where none can be kept."""
    def decorate(function: Function) -> Function:
        try:
            kernel: Function = njit(cache=True, **options)(function)
        except RuntimeError:   # "cannot cache function ...: no locator available"
            kernel = njit(**options)(function)
        return kernel
    return decorate
