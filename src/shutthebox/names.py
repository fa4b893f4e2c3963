"""Player names: one rule for the command line, the terminal game and the web.

A name is what the other players read, so two names that look the same must be the same
name, and a name must not be able to change what is printed around it. The rule:

- Unicode is normalised (NFKC), so a full-width ``Ａｎｎ`` is ``Ann``;
- characters that show nothing (zero-width spaces and joiners, the byte-order mark, the
  soft hyphen) are removed, so ``Ann\\u200b`` is ``Ann``;
- runs of white space become one space and the ends are trimmed;
- control characters (a NUL, a newline, a terminal escape) and the bidirectional
  overrides and isolates, which reorder the text printed after them, are refused;
- a name is 1 to :data:`MAX_NAME` characters long.
"""

from __future__ import annotations

import unicodedata

from shutthebox.errors import PlayerNameError
from shutthebox.language import _

YOU = "You"
"""The name of the seat the reader plays: the game speaks to it ("Your turn", "You shut the
box!") and never writes it as a name of someone else; a list of names says it in the
reader's language (:func:`name_of`)."""

MAX_NAME = 40
"""The longest name, in characters after normalising."""

INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
"""Characters that show nothing: removed, since a name only looks the same without them."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""Marks, embeddings, overrides and isolates: refused, since they reorder what follows."""


def clean_name(text: str) -> str:
    """The name as it is stored and shown, or :class:`PlayerNameError` saying why not.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("Ann\\u200b") == clean_name("Ａｎｎ") == "Ann"
    True
    >>> clean_name("Ann\\x1b[2J")
    Traceback (most recent call last):
    ...
    shutthebox.errors.PlayerNameError: the name 'Ann\\x1b[2J' holds a control character (\\x1b): \
names are letters, digits, spaces and punctuation

    :raises PlayerNameError: the name is empty, too long, or holds a control character or a
        bidirectional control.
    """
    normal = unicodedata.normalize("NFKC", text)
    for char in normal:
        if char in BIDI_CONTROLS:
            raise PlayerNameError(
                _("the name {text!r} holds a bidirectional control (U+{code:04X}), "
                  "which would reorder the text shown after it").format(
                  text=text, code=ord(char)))
        if char in INVISIBLE:
            continue
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise PlayerNameError(
                _("the name {text!r} holds a control character ({character}): names are "
                  "letters, digits, spaces and punctuation").format(
                  text=text, character=_shown(char)))
    name = " ".join("".join(c for c in normal if c not in INVISIBLE).split())
    if not name:
        raise PlayerNameError(_("a name is needed: type the name the others will see"))
    if len(name) > MAX_NAME:
        raise PlayerNameError(
            _("the name {name!r}... is too long: {MAX_NAME} characters at most").format(
              name=name[:MAX_NAME], MAX_NAME=MAX_NAME))
    return name


def _shown(char: str) -> str:
    """A character as an escape a reader can type back, such as ``\\x1b``."""
    return repr(char)[1:-1]


def about(name: str, you: str, other: str, **values: object) -> str:
    """The sentence ``other`` about ``name`` (its ``{name}``), or ``you`` when ``name`` is
    :data:`YOU`, in the current language: whole sentences, since languages conjugate each
    person their own way (both marked with ``N_`` for the catalogues).

    >>> from shutthebox.language import N_
    >>> about("You", N_("You shut {tiles}"), N_("{name} shuts {tiles}"), tiles="1 7")
    'You shut 1 7'
    >>> about("Ann", N_("You shut {tiles}"), N_("{name} shuts {tiles}"), tiles="1 7")
    'Ann shuts 1 7'
    """
    return _(you if name == YOU else other).format(name=name, **values)


def name_of(name: str) -> str:
    """A player's name as a list of names says it (:data:`YOU` in the current language)."""
    return _("You") if name == YOU else name
