"""Every command speaks every language: run under ``LANG`` set to each language the package
has, no command prints an English word of the game (its output, its tables, its errors and
its help).

How a leak is found: each command runs once in English and once in the language. A word
of the English output that comes back in the other language's output is a leak, unless the
language's own catalogue uses it too (French says "score" and "total", German "Runde", ...)
or it names something that is not translated: a preset, a strategy, a format, a flag, a
player. Paths, the game's own name and Typer's type labels are left out first.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from shutthebox.cli import COMMANDS, main, typer_speaks
from shutthebox.formats import FormatKind
from shutthebox.language import DEFAULT_LANGUAGE, LANGUAGES, catalogue_path, speak
from shutthebox.rules import PRESETS

TRANSLATED = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]
LOCALES = {"fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8", "es": "es_ES.UTF-8", "ar": "ar"}

NAMES_NOT_TRANSLATED = {
    *(word for name in PRESETS for word in name.split("-")),
    *(kind.value for kind in FormatKind), "rounds", "rolls", "turns", "knock", "stand",
    "optimal", "random", "easy", "medium", "hard", "cpu", "shutthebox", "ann", "json", "png",
    "svg", "utc", "nine", "bogus", "extra", *COMMANDS,
    "current", "upgrade", "token", "games", "end", "rename", "free",   # db's and admin's
}
"""Words that name something the command line takes as it is written (presets, formats,
strategies, the players and the typed input of these runs), so a reader of any language
types them so."""

ANSWERS = "\n".join(["?", "h", *[" ".join(map(str, combo)) for combo in (
    (4,), (1, 3), (3,), (1, 2), (2,), (1,), (2, 3), (1, 2, 3))] * 8, "1", "2"] * 3)
"""What a player types in these runs: help, a hint, then tiles until one fits."""


GAME = "game-1.json"
"""The reader's game, in the runs' folder (a hyphenated name: not a word to translate)."""

RUNS: dict[str, list[str]] = {
    "help": ["--help"],
    "rules": ["rules"],
    "rules classic": ["rules", "classic"],
    "rules children": ["rules", "children"],
    "rules --help": ["rules", "--help"],
    "solve": ["solve", "--tiles", "6"],
    "solve --help": ["solve", "--help"],
    "hint": ["hint", "--roll", "3,4"],
    "hint dice": ["hint", "--tiles", "6", "--open", "1,2,3"],
    "hint no move": ["hint", "--open", "1,2", "--roll", "6,6"],
    "hint --help": ["hint", "--help"],
    "review": ["review", "{game}"],
    "review --help": ["review", "--help"],
    "simulate": ["simulate", "--tiles", "6", "-n", "2000"],
    "simulate --help": ["simulate", "--help"],
    "tournament": ["tournament", "--tiles", "6", "-n", "5", "--stake", "1"],
    "tournament --help": ["tournament", "--help"],
    "daily": ["daily", "--date", "2026-01-03"],
    "daily --help": ["daily", "--help"],
    "games": ["games", "--with-a-saved-game"],
    "games --help": ["games", "--help"],
    "play computers": ["play", "--players", "cpu,cpu", "--seed", "1", "--fast", "--plain"],
    "play solo": ["play", "--players", "You", "--tiles", "3", "--seed", "2", "--plain"],
    "play person": ["play", "--players", "You,cpu", "--tiles", "4", "--seed", "4", "--plain",
                    "--stake", "1"],
    "play --help": ["play", "--help"],
    "serve --help": ["serve", "--help"],
    "backup --help": ["backup", "--help"],
    "restore --help": ["restore", "--help"],
    "db --help": ["db", "--help"],
    "db current --help": ["db", "current", "--help"],
    "admin --help": ["admin", "--help"],
    "admin rename --help": ["admin", "rename", "--help"],
    "admin token": ["admin", "token"],
    "health --help": ["health", "--help"],
    "error: db current": ["db", "current", "--database-url", "sqlite:////nonexistent/none.sqlite"],
    "error: roll": ["hint", "--roll", "3"],
    "error: preset": ["rules", "nine"],
    "error: players": ["play", "--players", ","],
    "error: games": ["simulate", "-n", "0"],
    "error: totals": ["hint", "--totals", "3,4"],
    "error: read-only home": ["play", "--players", "You,cpu", "--home-is-a-file"],
    "error: no such option": ["hint", "--bogus"],
    "error: no such command": ["bogus"],
    "error: out of range": ["play", "--games", "0"],
    "error: not a number": ["hint", "--tiles", "x"],
    "error: extra arguments": ["rules", "classic", "extra"],
    "error: missing argument": ["review"],
}
"""Each command, its help, and some of its errors, by a name for the test's id."""


@contextlib.contextmanager
def environment(**variables: str) -> Iterator[None]:
    """``os.environ`` with these variables set (and the locale ones cleared) for a while."""
    saved = dict(os.environ)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        os.environ.pop(name, None)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run(args: list[str], language: str, home: Path) -> str:
    """What ``shutthebox ARGS`` prints (both streams) under ``LANG`` for ``language``, in a
    fresh data folder under ``home``."""
    folder = home / language / "_".join(re.sub(r"\W", "", a) for a in args)[:60]
    folder.mkdir(parents=True)
    if "--home-is-a-file" in args:
        args = [a for a in args if a != "--home-is-a-file"]
        (folder / "file").write_text("")
        folder = folder / "file" / "home"   # under a file: no one can write there, not root
    if "--with-a-saved-game" in args:
        args = [a for a in args if a != "--with-a-saved-game"]
        (folder / "games").mkdir()
        shutil.copy(home / GAME, folder / "games" / GAME)
    args = [str(home / GAME) if a == "{game}" else a for a in args]
    out, err = io.StringIO(), io.StringIO()
    locale = {"LANG": LOCALES[language]} if language != DEFAULT_LANGUAGE else {"LANG": "C"}
    with environment(SHUTTHEBOX_HOME=str(folder), COLUMNS="200", **locale), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            contextlib.suppress(SystemExit):
        stdin, sys.stdin = sys.stdin, io.StringIO(ANSWERS)
        try:
            main(args)
        finally:
            sys.stdin = stdin
            speak(DEFAULT_LANGUAGE)
            typer_speaks()
    return out.getvalue() + "\n" + err.getvalue()


GAME_NAME = re.compile(r"Shut the Box", re.IGNORECASE)
NOT_WORDS = re.compile(r"(?:/|~)\S*|\S+\.(?:json|png|svg)\b|<[^>]*>|\{[^}]*\}|`[^`]*`"
                       r"|--[\w-]+|\S*\w-\w\S*|\S+[:,]\S+|\b[A-Z]{2,}\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
"""What is not a word to translate: paths and file names, Typer's type labels, a
translation's placeholders, code quoted in backticks, flags, hyphenated names (presets,
strategies) and values (``rounds:R``, ``You,cpu``), and names in capitals (``NAME``,
``CPU``, ``SHUTTHEBOX_PORT``)."""
WORD = re.compile(r"[^\W\d_]{3,}")


def words(text: str) -> set[str]:
    """The words of ``text`` (three letters or more, lower case), without what
    :data:`NOT_WORDS` leaves out."""
    text = NOT_WORDS.sub(" ", GAME_NAME.sub(" ", text))
    return {word.lower() for word in WORD.findall(text)}


@functools.cache
def catalogue_words(language: str) -> frozenset[str]:
    """Every word the language's catalogue uses in its translations."""
    with catalogue_path(language).open("rb") as file:
        read = read_po(file, locale=language)
    found: set[str] = set()
    for message in read:
        said = message.string
        for text in (said if isinstance(said, tuple | list) else [said]):
            found |= words(text or "")
    return frozenset(found)


def english_left(english: str, translated: str, language: str) -> set[str]:
    """The words of the English output left in ``translated``: leaks."""
    return (words(english) & words(translated)) - catalogue_words(language) \
        - NAMES_NOT_TRANSLATED


@functools.cache
def english_output(name: str, home: str) -> str:
    return run(RUNS[name], DEFAULT_LANGUAGE, Path(home))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory,
         game_of_the_reader: Callable[[Path], Path]) -> Path:
    """The runs' folder, with the reader's game (``game-1.json``) they review and list."""
    folder = tmp_path_factory.mktemp("languages")
    game_of_the_reader(folder / GAME)
    return folder


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", list(RUNS))
def test_every_command_speaks_the_language_of_lang(name: str, language: str,
                                                    home: Path) -> None:
    english = english_output(name, str(home))
    assert len(words(english)) >= 3, english   # the run said something to translate
    translated = run(RUNS[name], language, home)
    assert "Traceback" not in translated
    assert english_left(english, translated, language) == set(), translated


def test_an_english_sentence_left_in_a_translation_is_found() -> None:
    english = "Roll 3+4=7 with 1 2 3 open (score), best first\nthe simulated mean is +0.2"
    french = "Lancer 3+4=7 avec 1 2 3 ouverts (score), best first\nla moyenne simulée est +0.2"
    assert english_left(english, french, "fr") == {"best", "first"}
    assert english_left(english, "Rolled with 1 2 3 open", "ar") == {"open", "with"}
    assert english_left(english, "لوح 3 مفتوح", "ar") == set()


def test_the_words_of_paths_flags_and_names_are_not_sentences() -> None:
    assert words("saved to /tmp/games/a.json: --one-die-forced <int range> pub-digits "
                 "rounds:R NAME {name} `shutthebox rules` Shut the Box") == {"saved"}
