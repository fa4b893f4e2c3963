"""The language the game speaks to a reader: every sentence of :mod:`shutthebox.narration`
(and every other sentence a person reads about the game) passes through :func:`_`, which
gives it in the language of the current context.

A server speaks to each reader in their own language at once, so the language is a context
variable (each request and each live feed sets its own with :func:`speaking`), not a
process-wide setting. The translations are gettext catalogues, one ``.po`` file a language
under ``locale/<language>/LC_MESSAGES/shutthebox.po`` (the file a translator edits, see the
manual's Languages page), read once a process and kept as a dictionary: saying a sentence
is one lookup.

>>> _("Your turn")
'Your turn'
>>> with speaking("fr"):
...     _("Your turn")
'Votre tour'
>>> negotiate("de-CH,de;q=0.9,en;q=0.8"), from_environment({"LANG": "es_ES.UTF-8"})
('de', 'es')
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar, Token
from pathlib import Path
from typing import IO, Any, NamedTuple

DEFAULT_LANGUAGE = "en"
"""The language of the sentences in the code, the catalogues' keys."""

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "es": "Español", "ar": "العربية"}
"""Each language the game speaks, by its code, named in itself (as a switch lists them)."""

RIGHT_TO_LEFT = frozenset({"ar"})
"""The languages written right to left."""

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "shutthebox"

MAX_PREFERENCES = 20
"""How many languages of a reader's list are read (an Accept-Language header can be long)."""


class Catalogue(NamedTuple):
    """A language's translations: each message by its English sentence, the plural forms of
    each plural message by its English singular, and the language's plural rule."""

    messages: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    plural_form: Callable[[int], int]
    script: dict[str, str]
    """The messages of the page's own words (those found in its scripts and page), which
    the page is sent."""


def _english_plural(count: int) -> int:
    return 0 if count == 1 else 1


_ENGLISH = Catalogue({}, {}, _english_plural, {})


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalogue(language: str) -> Catalogue:
    """The translations of ``language`` (English, the keys' language, has none), read once.
    A message not yet translated, or marked fuzzy, is left out: it is said in English."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: known are {', '.join(LANGUAGES)}")
    if language == DEFAULT_LANGUAGE:
        return _ENGLISH
    from babel.messages.pofile import read_po

    with catalogue_path(language).open("rb") as file:
        read = read_po(file, locale=language, domain=DOMAIN)
    messages: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    script: dict[str, str] = {}
    for message in read:
        if not message.id or message.fuzzy:
            continue
        said = message.string
        if isinstance(message.id, tuple) and isinstance(said, tuple | list) and all(said):
            plurals[message.id[0]] = tuple(said)
        elif isinstance(message.id, str) and isinstance(said, str) and said:
            messages[message.id] = said
            if any(not path.endswith(".py") for path, _line in message.locations):
                script[message.id] = said
    rule = gettext.c2py(read.plural_expr)
    return Catalogue(messages, plurals, rule, script)


_language: ContextVar[str] = ContextVar("language", default=DEFAULT_LANGUAGE)
_catalogue: ContextVar[Catalogue] = ContextVar("catalogue", default=_ENGLISH)


def current_language() -> str:
    """The language of the current context."""
    return _language.get()


def _(message: str) -> str:
    """``message`` (an English sentence, the catalogues' key) in the current language."""
    return _catalogue.get().messages.get(message, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The sentence for ``count`` things in the current language (its plural rule choosing
    among its forms), with ``singular`` and ``plural`` the English ones.

    >>> ngettext("{count} tile", "{count} tiles", 3).format(count=3)
    '3 tiles'
    """
    found = _catalogue.get()
    forms = found.plurals.get(singular)
    if forms is None:
        return singular if count == 1 else plural
    return forms[min(found.plural_form(count), len(forms) - 1)]


def N_(message: str) -> str:
    """``message`` unchanged: marks a sentence kept in a table to be said later with
    :func:`_` (the catalogues' extraction finds it here)."""
    return message


class speaking:
    """Within the block, :func:`_` speaks ``language`` (one of :data:`LANGUAGES`).

    A class rather than a generator: the server enters one for every request it answers."""

    __slots__ = ("_catalogue", "_language", "_tokens")

    def __init__(self, language: str) -> None:
        self._language = language
        self._catalogue = catalogue(language)
        self._tokens: tuple[Token[str], Token[Catalogue]] | None = None

    def __enter__(self) -> None:
        self._tokens = _language.set(self._language), _catalogue.set(self._catalogue)

    def __exit__(self, *exc: object) -> None:
        assert self._tokens is not None, "speaking was left before it was entered"
        _catalogue.reset(self._tokens[1])
        _language.reset(self._tokens[0])


def speak(language: str) -> None:
    """From now on in this context (a process's command, a thread), speak ``language``."""
    _catalogue.set(catalogue(language))
    _language.set(language)


def language_of(tag: str) -> str | None:
    """The language the game speaks for a language tag or locale name (``'fr-CH'``,
    ``'de_DE.UTF-8'``), or None.

    >>> language_of("fr-CH"), language_of("pt_BR"), language_of("C.UTF-8")
    ('fr', None, 'en')
    """
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    if base in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return base if base in LANGUAGES else None


def negotiate(accepted: str | None) -> str:
    """The language to speak to a reader whose browser accepts ``accepted`` (an
    Accept-Language header: tags with optional ``q`` weights), English when none is spoken.

    >>> negotiate("pt-BR, es;q=0.8, fr;q=0.9"), negotiate("*"), negotiate(None)
    ('fr', 'en', 'en')
    """
    if not accepted:
        return DEFAULT_LANGUAGE
    weighted: list[tuple[float, int, str]] = []
    for place, item in enumerate(accepted.split(",")[:MAX_PREFERENCES]):
        tag, _sep, params = item.partition(";")
        weight = 1.0
        name, _eq, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        language = language_of(tag)
        if language is not None and weight > 0:
            weighted.append((-weight, place, language))
    return min(weighted)[2] if weighted else DEFAULT_LANGUAGE


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a terminal program speaks, found as gettext finds it: the first of
    ``LANGUAGE`` (a list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, English
    when it names no language the game speaks.

    >>> from_environment({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"})
    'fr'
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable)
        if value:
            for tag in value.split(":") if variable == "LANGUAGE" else [value]:
                language = language_of(tag)
                if language is not None:
                    return language
            if variable != "LANGUAGE":
                return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def extract_page(fileobj: IO[bytes], keywords: Iterable[str], comment_tags: Iterable[str],
                 options: dict[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for the page's HTML (``babel.cfg``), finding what the
    page's ``i18n.js`` translates: each element marked ``data-t``, its ``placeholder``,
    ``aria-label`` and ``title``, and its text (the ``data-t`` value, else the text
    itself) unless it holds other elements."""
    from html.parser import HTMLParser

    found: list[tuple[int, str, str, list[str]]] = []

    class Marked(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.marked: list[tuple[str, int, str, list[str], list[bool]]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            if self.marked:
                self.marked[-1][4].append(True)   # the marked element holds another
            if "data-t" not in named:
                return
            line = self.getpos()[0]
            for attribute in ("placeholder", "aria-label", "title"):
                if named.get(attribute):
                    found.append((line, "t", str(named[attribute]), []))
            if tag not in VOID:
                self.marked.append((tag, line, named["data-t"] or "", [], []))

        def handle_data(self, data: str) -> None:
            if self.marked:
                self.marked[-1][3].append(data)

        def handle_endtag(self, tag: str) -> None:
            if self.marked and self.marked[-1][0] == tag:
                _tag, line, value, text, inner = self.marked.pop()
                said = value or ("" if inner else " ".join("".join(text).split()))
                if said:
                    found.append((line, "t", said, []))

    Marked().feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    yield from sorted(found)


VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
