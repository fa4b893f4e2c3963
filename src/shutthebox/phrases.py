"""Pieces of the sentences the game's sentences share, in the current language.

>>> join_words(["7", "3", "1"]), join_words(["8", "7 1"], "or"), join_words(["Ann"])
('7, 3 and 1', '8 or 7 1', 'Ann')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from shutthebox.language import N_, _

_LAST = {"and": N_("{words} and {last}"), "or": N_("{words} or {last}")}
"""The end of a list, by its conjunction."""


def join_words(words: Sequence[str], conjunction: Literal["and", "or"] = "and") -> str:
    """Words listed as a person says them: ``'a'``, ``'a and b'``, ``'a, b and c'`` (with
    ``conjunction`` before the last, in the current language; nothing for no words)."""
    if len(words) < 2:
        return "".join(words)
    return _(_LAST[conjunction]).format(words=_(", ").join(words[:-1]), last=words[-1])
