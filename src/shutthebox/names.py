"""Player names: one rule for the command line, the terminal game and the web.

A name is what the other players read, so two names that look the same must be the same
name, and a name must not be able to change what is printed around it. The rule:

- Unicode is normalised (NFKC), so a full-width ``Ａｎｎ`` is ``Ann``;
- characters that show nothing (zero-width spaces and joiners, the byte-order mark, the
  soft hyphen) are removed, so ``Ann\\u200b`` is ``Ann``;
- runs of white space become one space and the ends are trimmed;
- control characters (a NUL, a newline, a terminal escape) and the bidirectional
  overrides and isolates, which reorder the text printed after them, are refused;
- a letter carries at most :data:`MAX_MARKS` combining marks, so that no name draws over
  the lines above and below it;
- a name is 1 to :data:`MAX_NAME` characters long.

Two names that look the same share one key (:func:`name_key`): a server lets one player
claim it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

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

MAX_MARKS = 2
"""The most combining marks on one letter: enough for any language's letters (Vietnamese
stacks two), too few to draw outside the line."""

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
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.combining(char) else 0
        if marks > MAX_MARKS:
            raise PlayerNameError(
                _("the name {text!r} stacks more than {MAX_MARKS} marks on one letter, which "
                  "would draw over the lines around it").format(text=text,
                                                                MAX_MARKS=MAX_MARKS))
    if not name:
        raise PlayerNameError(_("a name is needed: type the name the others will see"))
    if len(name) > MAX_NAME:
        raise PlayerNameError(
            _("the name {name!r}... is too long: {MAX_NAME} characters at most").format(
              name=name[:MAX_NAME], MAX_NAME=MAX_NAME))
    return name


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What ``name`` (cleaned, see :func:`clean_name`) looks like, for telling names apart:
    case folded, then each character replaced by the one Unicode's confusables take as its
    prototype (``I`` and ``1`` by ``l``, a Cyrillic ``а`` by ``a``; the data through
    ``confusable_homoglyphs``). Two names with one key are one name on a server.

    >>> name_key("Ann") == name_key("ANN") == name_key("\u0410nn")   # a Cyrillic A
    True
    >>> name_key("B0b") == name_key("BOB"), name_key("Ann") == name_key("Anne")
    (True, False)

    (Kept for the last names asked: the confusables' lookups take a fraction of a
    millisecond a character, and a server asks for the same names at every new game.)
    """
    folded = name.casefold()
    looks = _looks_like(folded)
    return "".join(_prototype(c, looks) for c in folded).casefold()


def _looks_like(text: str) -> dict[str, list[str]]:
    """The single characters each character of ``text`` can be taken for."""
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(text, greedy=True, preferred_aliases=[]) or []
    return {entry["character"]: [h["c"] for h in entry["homoglyphs"] if len(h["c"]) == 1]
            for entry in found}


def _prototype(char: str, looks: dict[str, list[str]]) -> str:
    """The prototype of ``char``: the data lists, for a prototype, every character that
    looks like it, and for any other character only its prototype; of two characters that
    only look like each other, the plainer one."""
    alike = looks.get(char, [])
    if len(alike) != 1:
        return char
    other = alike[0]
    if _looks_like(other).get(other) == [char]:
        return min(char, other, key=lambda c: (not c.isascii(), ord(c)))
    return other


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
