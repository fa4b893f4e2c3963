"""The server's dice: random numbers from the operating system's secure source, as
:class:`random.SystemRandom` draws them, read a few KiB at a time.

:class:`random.SystemRandom` asks the kernel for every number it draws: a system call for
each die, on the path of every roll a server answers. These are the same bytes (from
:func:`os.urandom`), each used once, read in blocks. A child process (``fork``) drops what
its parent had read, so that no two processes share a byte.
"""

from __future__ import annotations

import os
import random
import weakref
from collections.abc import Iterator
from typing import Any, NoReturn

BLOCK = 4096
"""Bytes read from the kernel at a time."""

_ALL: weakref.WeakSet[SecureRandom] = weakref.WeakSet()


def _forget_in_child() -> None:
    for source in list(_ALL):
        source.forget()


os.register_at_fork(after_in_child=_forget_in_child)


class SecureRandom(random.Random):
    """:class:`random.SystemRandom`'s numbers, its bytes read :data:`BLOCK` at a time. Safe
    to share between threads: each byte is taken by one ``next`` of an iterator, which no
    other thread can split. Like :class:`random.SystemRandom`, it cannot be seeded and has
    no state to save.

    >>> dice = SecureRandom()
    >>> sorted({dice.randint(1, 6) for _ in range(1000)})
    [1, 2, 3, 4, 5, 6]
    """

    def __init__(self, block: int = BLOCK) -> None:
        self._block = block
        self._bytes: Iterator[int] = iter(b"")
        super().__init__()
        _ALL.add(self)

    def forget(self) -> None:
        """Drop the bytes read and not used yet (in a child process: its parent's)."""
        self._bytes = iter(b"")

    def _byte(self) -> int:
        try:
            return next(self._bytes)
        except StopIteration:
            self._bytes = iter(os.urandom(self._block))
            return next(self._bytes)

    def getrandbits(self, k: int) -> int:
        """An integer of ``k`` random bits."""
        if 0 < k <= 8:                  # a die's: one byte
            return self._byte() >> (8 - k)
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        count = (k + 7) // 8
        return int.from_bytes(self.randbytes(count)) >> (count * 8 - k)

    def random(self) -> float:
        """A float in [0, 1), as :meth:`random.SystemRandom.random` makes it (53 bits)."""
        return (int.from_bytes(self.randbytes(7)) >> 3) * 2.0 ** -53

    def randbytes(self, n: int) -> bytes:
        return bytes(self._byte() for _ in range(n))

    def seed(self, *args: Any, **kwds: Any) -> None:
        """Nothing: the numbers come from the kernel (as :class:`random.SystemRandom`)."""

    def getstate(self) -> NoReturn:
        raise NotImplementedError("secure random numbers have no state to save")

    def setstate(self, state: Any) -> NoReturn:
        raise NotImplementedError("secure random numbers have no state to set")
