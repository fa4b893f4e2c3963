"""The strategy interface: a situation carries the match's format and the seat's role as
types, whose words are those of the event log and the web API."""

from __future__ import annotations

import json
import random

from shutthebox.formats import GameFormat
from shutthebox.match import Match, MatchConfig
from shutthebox.players.base import Role, Situation
from shutthebox.rules import Rules


def test_a_role_reads_as_the_word_the_log_and_the_api_use() -> None:
    assert [role.value for role in Role] == ["turn", "knock", "stand", "roll-off"]
    assert Role("knock") is Role.KNOCK and f"{Role.STAND}" == "stand"
    assert json.dumps({"role": Role.TURN}) == '{"role": "turn"}'


def test_a_battle_situation_carries_its_format_and_role() -> None:
    match = Match(MatchConfig(Rules(), GameFormat.parse("battle:rolls"), ("Ann", "Bob")))
    rng = random.Random(3)
    while match.pending.kind == "roll-off":
        match.roll(rng)
    situation = match.situation()
    assert situation.format == GameFormat.parse("battle:rolls")
    assert situation.role is Role.KNOCK
    assert situation.by_rolls and situation.battle == situation.format
    assert match.to_log()["events"][-1]["role"] == "knock"


def test_outside_a_match_there_is_no_format_and_a_plain_turn() -> None:
    assert Situation().format is None and Situation().role is Role.TURN
    assert not Situation().by_rolls and Situation().battle is None
