"""The coach (:mod:`shutthebox.coach`): one hint and one review for every interface.

Random positions of every format, with two and three players where the format allows, get the
same ranked hint from the terminal's panel, the web worker and the command line; the review
of a game is the same from the library, the web worker and the command line; and in a battle
the hint ranks by the chance to win the battle, so a player who follows it is charged nothing.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shutthebox import coach
from shutthebox.cli.solve import hint_command, review_command
from shutthebox.match import FormatKind, GameFormat, Match, MatchConfig, play_out
from shutthebox.players.base import Strategy
from shutthebox.rules import OneDie, Rules, Scoring
from shutthebox.solver.matchplay import solve_match
from shutthebox.solver.objectives import SCORE
from shutthebox.solver.players import OptimalStrategy, battle_roll_values
from shutthebox.strategies import format_move, make_strategy
from shutthebox.terminal.hints import hint_for
from shutthebox.tiles import mask_of, tiles_of
from shutthebox.web.solving import workers as advice

SMALL = Rules(tiles=6, one_die=OneDie.LOW_SUM)   # a dice choice once 6 or less is open
COVERED = Rules(tiles=6, one_die=OneDie.LOW_SUM, scoring=Scoring.COVERED)

FORMATS = [
    ("solo", 1, SMALL),
    ("single", 2, SMALL),
    ("single", 3, SMALL),
    ("rounds:2", 2, SMALL),
    ("rounds:2", 3, SMALL),
    ("elimination:25", 2, SMALL),
    ("elimination:25", 3, SMALL),
    ("loser-at:25", 2, SMALL),
    ("loser-at:25", 3, SMALL),
    ("race:30", 2, COVERED),
    ("race:30", 3, COVERED),
    ("battle:turns", 2, SMALL),
    ("battle:rolls", 2, SMALL),
]
"""Every format, with two and three players where it takes them, on a box of six tiles."""

PLAYERS = ("Ann", "Bo", "Cy")


def positions(game_format: str, players: int, rules: Rules, seed: int,
              wanted: int) -> Iterator[Match]:
    """Decisions met while random players play matches, ``wanted`` of them: most dice choices
    (the rarer kind) and about one move in three."""
    rng = random.Random(seed)
    found = 0
    while True:
        match = Match(MatchConfig(rules, GameFormat.parse(game_format), PLAYERS[:players]))
        while not match.is_over:
            pending = match.pending
            if pending.is_chance:
                match.roll(rng)
                continue
            assert pending.turn is not None
            if rng.random() < (0.8 if pending.kind == "choose-dice" else 0.3):
                yield match
                found += 1
                if found == wanted:
                    return
            match.decide(rng.choice(pending.turn.legal_actions()))


def cli_flags(match: Match) -> dict[str, Any]:
    """The position as the command line's ``hint`` takes it."""
    pending = match.pending
    turn = pending.turn
    assert turn is not None
    flags: dict[str, Any] = {"open_text": ",".join(map(str, tiles_of(turn.open_tiles))),
                             "roll_text": None if pending.kind == "choose-dice" else
                             ",".join(map(str, turn.roll or ()))}
    situation = match.situation()
    fmt = match.config.format
    if fmt.kind is FormatKind.BATTLE:
        return {**flags, "game_format": str(fmt), "role": pending.role}
    if len(situation.totals) < 2:
        return flags                                 # alone: the expected score
    posted = situation.posted
    before = [total - (posted[i] if i < len(posted) else 0)
              for i, total in enumerate(situation.totals[1:])]
    return {**flags, "game_format": str(fmt),
            "totals_text": ",".join(map(str, (situation.totals[0], *before))),
            "posted_text": ",".join(map(str, posted)) if posted else None,
            "round_number": situation.round if fmt.kind is FormatKind.ROUNDS else None}


def cli_hint(rules: Rules, flags: dict[str, Any], capsys: pytest.CaptureFixture[str]
             ) -> list[dict[str, Any]]:
    hint_command(rules, as_json=True, **flags)
    answer: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return answer


def action_of(option: dict[str, Any]) -> str:
    """A choice of the web's or the command line's answer in the terminal's words."""
    if "dice" in option:
        return f"{option['dice']} di{'e' if option['dice'] == 1 else 'ce'}"
    return format_move(mask_of(option["tiles"]))


@pytest.mark.parametrize(("game_format", "players", "rules"), FORMATS,
                         ids=[f"{f}-{n}" for f, n, _ in FORMATS])
def test_the_terminal_the_web_and_the_command_line_give_the_same_hint(
        game_format: str, players: int, rules: Rules,
        capsys: pytest.CaptureFixture[str]) -> None:
    for k, match in enumerate(positions(game_format, players, rules, seed=len(game_format),
                                        wanted=6)):
        terminal = hint_for(match)
        web = advice.hint(f"hint-{game_format}-{players}-{k}", match.to_log())
        cli = cli_hint(rules, cli_flags(match), capsys)
        ranked = coach.hint(match)
        assert web["measure"] == terminal.unit == ranked.measure
        assert [action_of(o) for o in web["options"]] == [row[0] for row in terminal.rows] \
            == [action_of(o) for o in cli] == [ranked.describe(c) for c in ranked.choices]
        assert [(o["value"], o["loss"]) for o in web["options"]] \
            == [(o["value"], o["loss"]) for o in cli] \
            == [(c.value, c.loss) for c in ranked.choices]
        shown = [f"{o['value']:.2f}" if web["measure"] == "expected score" else
                 f"{o['value'] * 100:.2f} %" for o in web["options"]]
        assert [row[1] for row in terminal.rows] == shown
        assert [row[2] for row in terminal.rows] == [f"{o['p_shut'] * 100:.2f} %"
                                                     for o in web["options"]]
        against_others = players > 1 and game_format != "solo"
        assert web["measure"] == ("chance to win" if against_others else "expected score")


def played_game(game_format: str, players: int, rules: Rules, seed: int) -> dict[str, Any]:
    """The log of a match between a random player, the optimal one and a simple one."""
    match = Match(MatchConfig(rules, GameFormat.parse(game_format), PLAYERS[:players]))
    names = ("random", "optimal", "highest-first")
    seats: dict[int, Strategy] = {seat: make_strategy(names[seat], rules, random.Random(seat))
                                  for seat in range(players)}
    play_out(match, seats, random.Random(seed))
    return match.to_log()


@pytest.mark.parametrize(("game_format", "players", "rules"), FORMATS,
                         ids=[f"{f}-{n}" for f, n, _ in FORMATS])
def test_the_library_the_web_and_the_command_line_give_the_same_review(
        game_format: str, players: int, rules: Rules, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    log = played_game(game_format, players, rules, seed=7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    reviewed = coach.review(log)
    web = advice.review(f"review-{game_format}-{players}", log)
    review_command(path, as_json=True)
    cli = json.loads(capsys.readouterr().out)
    assert cli["decisions"] == reviewed.to_dicts()
    assert [d["number"] for d in cli["decisions"]] == list(range(1, len(reviewed) + 1))
    assert cli["total_cost"] == reviewed.total_costs()
    assert cli["verdicts"] == reviewed.verdicts() and cli["mistakes"] == reviewed.mistakes()
    assert [(d["index"], d["played"], d["best"]) for d in web["decisions"]] \
        == [(d["index"], d["played"], d["best"]) for d in cli["decisions"]]
    scale = 100.0 if web["unit"] == "percentage points" else 1.0
    assert [d["cost"] for d in web["decisions"]] == [d["cost"] * scale for d in cli["decisions"]]
    assert [d["costly"] for d in web["decisions"]] == [
        d["cost"] >= coach.COSTLY[d["unit"]] for d in web["decisions"]]
    assert web["verdict"] == reviewed.verdict() and web["verdicts"] == reviewed.verdicts()
    assert len(web["verdicts"]) == len({d["player"] for d in web["decisions"]})
    against_others = players > 1 and game_format != "solo"
    assert web["unit"] == ("percentage points" if against_others else "points")


@pytest.mark.parametrize(("game_format", "players", "rules"), FORMATS,
                         ids=[f"{f}-{n}" for f, n, _ in FORMATS])
def test_a_player_who_follows_the_hint_is_charged_nothing(
        game_format: str, players: int, rules: Rules) -> None:
    rng = random.Random(11)
    match = Match(MatchConfig(rules, GameFormat.parse(game_format), PLAYERS[:players]))
    while not match.is_over:
        pending = match.pending
        if pending.is_chance:
            match.roll(rng)
        elif pending.seat == 0:
            match.decide(coach.hint(match).choices[0].action)
        else:
            assert pending.turn is not None
            match.decide(rng.choice(pending.turn.legal_actions()))
    charged = [d.cost for d in coach.review(match.to_log()) if d.seat == 0]
    assert charged and max(charged) < 1e-9


@pytest.mark.parametrize("game_format", ["battle:turns", "battle:rolls"])
def test_a_battle_hint_ranks_by_the_chance_to_win_the_battle(game_format: str) -> None:
    hard = make_strategy("optimal", SMALL, random.Random(0))
    by_score_differs = dice_choices = 0
    for match in positions(game_format, 2, SMALL, seed=3, wanted=60):
        pending = match.pending
        turn = pending.turn
        assert turn is not None
        situation = match.situation()
        ranked = coach.hint(match)
        assert ranked.measure == "chance to win"
        best = ranked.choices[0]
        assert best.action == hard.choose(turn, situation)
        assert best.value == max(c.value for c in ranked.choices) and best.loss == 0
        if game_format == "battle:rolls":
            values = battle_roll_values(SMALL, turn, situation)
            assert {c.action: c.value for c in ranked.choices} == values
        else:
            solution = OptimalStrategy(SMALL, SCORE).solution_for(situation)
            assert solution.objective.name == f"match:{game_format}:{pending.role}"
        if pending.kind == "choose-dice":   # the match solver's own chance from here
            battle = solve_match(SMALL, GameFormat.parse(game_format))
            assert best.value == pytest.approx(
                battle.battle_values(pending.role)[turn.open_tiles], abs=1e-12)
            dice_choices += 1
        by_score = coach.rank(turn, coach.aim(SMALL, situation, "score")).choices[0]
        by_score_differs += by_score.action != best.action
    assert by_score_differs   # the expected score would rank some of these wrongly
    assert dice_choices


def test_without_the_match_table_the_web_ranks_by_expected_score_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice, "table_missing", lambda log: str(log["format"]))
    match = next(positions("battle:turns", 2, SMALL, seed=5, wanted=1))
    hint = advice.hint("approximate-hint", match.to_log())
    assert hint["measure"] == "expected score"
    assert hint["message"] == advice.approximate_note("battle:turns")
    turn = match.pending.turn
    assert turn is not None
    by_score = coach.rank(turn, coach.aim(SMALL, objective="score"))
    assert [o["value"] for o in hint["options"]] == [c.value for c in by_score.choices]
    review = advice.review("approximate-review", played_game("battle:turns", 2, SMALL, 2))
    assert review["unit"] == "points" and review["note"] == hint["message"]


def test_the_command_line_hints_a_battle_read_by_rolls() -> None:
    match = next(m for m in positions("battle:rolls", 2, SMALL, seed=9, wanted=20)
                 if m.pending.kind == "shut")
    turn = match.pending.turn
    assert turn is not None and turn.roll is not None
    result = subprocess.run(
        [sys.executable, "-m", "shutthebox", "hint", "--tiles", "6", "--one-die", "low-sum",
         "--format", "battle:rolls",
         "--role", match.pending.role, "--open", ",".join(map(str, tiles_of(turn.open_tiles))),
         "--roll", ",".join(map(str, turn.roll)), "--json"],
        capture_output=True, text=True, timeout=120, check=True)
    ranked = coach.hint(match)
    assert [(mask_of(o["tiles"]), o["value"], o["loss"]) for o in json.loads(result.stdout)] \
        == [(c.action, c.value, c.loss) for c in ranked.choices]


def test_a_hint_needs_a_decision() -> None:
    match = Match(MatchConfig(SMALL, GameFormat.parse("battle:turns"), ("Ann", "Bo")))
    assert match.pending.kind == "roll"
    with pytest.raises(coach.NoDecisionError, match="waits for 'roll'"):
        coach.hint(match)
