"""Pieces of the sentences the game's sentences share, in the current language.

>>> join_words(["1", "3", "7"]), join_words(["8", "1 7"], "or"), join_words(["Ann"])
('1, 3 and 7', '8 or 1 7', 'Ann')
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
