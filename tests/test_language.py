"""The catalogues: every sentence the game says (in Python with ``_``, in the page's scripts
with ``t``, in its HTML marked ``data-t``) has a translation in every language, with the same
placeholders; the reader's language is found as browsers and terminals give it; the
terminal game speaks the language of ``LANG``."""

from __future__ import annotations

import asyncio
import functools
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from shutthebox import language
from shutthebox.language import (
    LANGUAGES,
    _,
    catalogue,
    catalogue_path,
    current_language,
    from_environment,
    negotiate,
    ngettext,
    speaking,
)
from shutthebox.narration import tell
from shutthebox.rules import HIGH_TILE, LOW_SUM_LIMIT, ONE_DIE_WORDS, OneDie

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [code for code in LANGUAGES if code != language.DEFAULT_LANGUAGE]


@functools.cache
def extracted() -> dict[str, list[str]]:
    """Every message the sources say, as the documented ``pybabel extract`` finds it (the
    same mapping file, the keywords ``_``, ``N_``, ``ngettext`` and the page's ``t``), with
    the files saying it."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    found: dict[str, list[str]] = {}
    for path, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, "t": None}):
        key = message if isinstance(message, str) else message[0]
        found.setdefault(key, []).append(path)
    return found


def test_the_sources_say_sentences_from_python_the_scripts_and_the_page() -> None:
    files = {path for paths in extracted().values() for path in paths}
    assert any(path.endswith("narration.py") for path in files)
    assert len(extracted()) > 300


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_sentence_has_a_translation(code: str) -> None:
    with catalogue_path(code).open("rb") as file:
        read = read_po(file)
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in read if m.id}
    missing = [m for m in extracted() if m not in translated or translated[m].fuzzy
               or not all(_forms(translated[m].string))]
    assert not missing, f"{code}: {len(missing)} without a translation, first {missing[:5]}"


def _forms(said: object) -> list[str]:
    """A translation's forms: one, or one for each plural form."""
    return [str(form) for form in said] if isinstance(said, tuple | list) else [str(said)]


def _fields(text: str) -> list[tuple[str, str, str]]:
    """The placeholders of a sentence: name, conversion and format, in order."""
    return sorted((name, conversion or "", spec or "")
                  for _literal, name, spec, conversion in string.Formatter().parse(text)
                  if name is not None)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code: str) -> None:
    with catalogue_path(code).open("rb") as file:
        read = read_po(file)
    differ = [(m.id, m.string) for m in read if m.id and any(
        _fields(form) != _fields(m.id if isinstance(m.id, str) else m.id[-1])
        for form in _forms(m.string) if form)]
    assert not differ, f"{code}: placeholders differ in {differ[:3]}"


def test_the_template_is_the_sources_sentences() -> None:
    with (language.LOCALE / f"{language.DOMAIN}.pot").open("rb") as file:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(file) if m.id}
    new, gone = set(extracted()) - template, template - set(extracted())
    assert not new and not gone, (
        f"run the extraction of docs/languages.md: new {sorted(new)[:5]}, gone {sorted(gone)[:5]}")


def test_a_placeholder_changed_in_a_translation_is_found() -> None:
    assert _fields("{name} rolls {roll}") != _fields("{name} lance {lancer}")
    assert _fields("a {value!r}") != _fields("a {value}")


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_reads_its_catalogue(code: str) -> None:
    with speaking(code):
        assert current_language() == code
        assert _("Your turn") != "Your turn"
        assert _("a sentence nobody wrote") == "a sentence nobody wrote"
    assert _("Your turn") == "Your turn"


def test_the_rule_words_name_the_rule_numbers() -> None:
    assert str(LOW_SUM_LIMIT) in ONE_DIE_WORDS[OneDie.LOW_SUM]
    assert str(HIGH_TILE) in ONE_DIE_WORDS[OneDie.HIGH_SHUT]


def test_plurals_follow_the_language_rule() -> None:
    assert ngettext("{count} tile", "{count} tiles", 1) == "{count} tile"
    assert ngettext("{count} tile", "{count} tiles", 2) == "{count} tiles"
    assert catalogue("ar").plural_form(0) != catalogue("ar").plural_form(1)
    assert catalogue("fr").plural_form(0) == catalogue("fr").plural_form(1) == 0


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'xx'"):
        catalogue("xx")


@pytest.mark.parametrize(("header", "spoken"), [
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
    ("pt-BR,pt;q=0.9,es;q=0.8,en;q=0.7", "es"),
    ("en;q=0.1, ar;q=0.9", "ar"),
    ("de;q=0, fr;q=0.2", "fr"),
    ("zh-CN", "en"),
    ("", "en"),
    ("fr;q=abc, de", "de"),
    (";;;,,,q=,=,", "en"),
    ("es" + ", x" * 10_000, "es"),
])
def test_a_browser_language_list_chooses_a_language(header: str, spoken: str) -> None:
    assert negotiate(header) == spoken


@pytest.mark.parametrize(("environ", "spoken"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
    ({"LC_ALL": "es_ES@euro", "LC_MESSAGES": "de_DE"}, "es"),
    ({"LANGUAGE": "pt_BR:ar:fr", "LANG": "de_DE"}, "ar"),
    ({"LANGUAGE": "pt_BR", "LANG": "de_DE"}, "de"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_terminal_language_is_found_as_gettext_finds_it(environ: dict[str, str],
                                                            spoken: str) -> None:
    assert from_environment(environ) == spoken


def test_each_reader_is_spoken_to_in_their_own_language_at_once() -> None:
    """Tasks running side by side (as requests in a server) each keep their language."""
    from shutthebox.formats import GameFormat
    from shutthebox.match import Match, MatchConfig
    from shutthebox.rules import Rules

    match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    event = {"type": "roll", "seat": 1, "roll": [3, 5]}

    async def reader(code: str) -> list[str]:
        said = []
        with speaking(code):
            for _turn in range(20):
                await asyncio.sleep(random.random() / 1000)
                told = tell(event, match)
                assert told is not None
                said.append(told.text)
        return said

    async def everyone() -> list[list[str]]:
        return await asyncio.gather(*(reader(code) for code in LANGUAGES))

    heard = asyncio.run(everyone())
    for code, said in zip(LANGUAGES, heard, strict=True):
        with speaking(code):
            expected = tell(event, match)
        assert expected is not None and set(said) == {expected.text}
    assert len({said[0] for said in heard}) == len(LANGUAGES)


def test_the_terminal_speaks_french_under_lang(tmp_path: Path) -> None:
    env = {**os.environ, "SHUTTHEBOX_HOME": str(tmp_path), "COLUMNS": "100",
           "LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "",
           "PYTHONPATH": str(ROOT / "src")}
    typed = "13\n?\nq\ny\n"
    result = subprocess.run([sys.executable, "-m", "shutthebox", "play", "--players", "Ann",
                             "--seed", "5"], input=typed, capture_output=True, text=True,
                            timeout=120, env=env, check=False)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "le clapet 13 n'est pas dans cette boîte : ses clapets vont de 1 à 9" in out
    assert "Ann : lancer 3+5=8 - clapets à fermer (? pour l'aide)" in out
    assert "montrer les coups possibles et ces touches" in out
    assert "Ann lance 3+5=8" in out or "lance 3+5=8" in out
    assert "tile 13 is not in this box" not in out
