"""Pieces of English that the game's sentences share.

>>> join_words(["7", "3", "1"]), join_words(["8", "7 1"], "or"), join_words(["Ann"])
('7, 3 and 1', '8 or 7 1', 'Ann')
"""

from __future__ import annotations

from collections.abc import Sequence


def join_words(words: Sequence[str], conjunction: str = "and") -> str:
    """Words listed as a person says them: ``'a'``, ``'a and b'``, ``'a, b and c'`` (with
    ``conjunction`` before the last; nothing for no words)."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
