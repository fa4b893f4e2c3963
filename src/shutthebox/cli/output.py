"""Standard output on any terminal: where it cannot show a character, plain ASCII.

The game draws with a few characters beyond ASCII (``·`` for a shut tile, ``⚀`` for a die,
``★`` for the winner, ``—`` in the log). A terminal whose encoding lacks them
(``PYTHONIOENCODING=ascii``, ``LANG=C`` on an old system) gets a plain stand-in for each, and
a name such as ``José`` loses only its accent, instead of the game stopping on
``UnicodeEncodeError``.

>>> plain_text("▶ Ann ★ winner · José")
'> Ann * winner . Jose'
"""

from __future__ import annotations

import codecs
import unicodedata
from typing import Any

PLAIN = {
    "·": ".", "—": "-", "–": "-", "…": "...", "▶": ">", "★": "*", "✓": "ok", "✗": "x",
    "█": "#", "⚀": "", "⚁": "", "⚂": "", "⚃": "", "⚄": "", "⚅": "", "“": '"', "”": '"',
    "‘": "'", "’": "'", "×": "x", "±": "+/-", "→": "->", "←": "<-",
}
"""Plain stand-ins for the characters the game draws with (a die's face is also written as
its number beside it, so the face itself goes)."""

ERRORS = "shutthebox-plain"
"""The name of the encoding error handler that writes the stand-ins."""


def plain_text(text: str) -> str:
    """``text`` with each character outside ASCII replaced by its stand-in: one of
    :data:`PLAIN`, the letter without its accents, or ``?``."""
    return "".join(char if char.isascii() else _plain_char(char) for char in text)


def _plain_char(char: str) -> str:
    if char in PLAIN:
        return PLAIN[char]
    stripped = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return stripped or "?"


def _replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return plain_text(error.object[error.start:error.end]), error.end


codecs.register_error(ERRORS, _replace)


def shows_everything(stream: Any) -> bool:
    """Whether ``stream``'s encoding can write every character the game draws with."""
    try:
        "".join(PLAIN).encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def plain_where_needed(stream: Any) -> None:
    """Make ``stream`` write plain stand-ins for the characters its encoding lacks."""
    if stream is not None and not shows_everything(stream) and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors=ERRORS)
