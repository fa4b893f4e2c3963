"""The score sheet of a real table (:mod:`shutthebox.match.sheet`): the same scores typed in
give what a match on the screen gives (the players out, the winners and losers, the pot), and
its invariants hold whatever valid rounds are typed (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.match import (
    MAX_SHEET_ROUNDS,
    GameFormat,
    Match,
    MatchConfig,
    ScoreSheet,
    SheetError,
    play_out,
    possible_scores,
)
from shutthebox.match.sheet import sheet_of
from shutthebox.players.simple import RandomStrategy
from shutthebox.rules import FirstPlayer, Rules, Scoring

SUM = Rules(tiles=6, first_player=FirstPlayer.SEAT)
COVERED = Rules(tiles=6, first_player=FirstPlayer.SEAT, scoring=Scoring.COVERED)
FORMATS = [("single", SUM), ("rounds:3", SUM), ("rounds:2", SUM.replace(instant_win=True)),
           ("elimination:25", SUM), ("loser-at:30", SUM), ("race:40", COVERED),
           ("single", COVERED)]
NAMES = ("Ann", "Bo", "Cy", "Di")


def round_scores(match: Match) -> list[list[int | None]]:
    """Each round's turn scores of a finished match, seat by seat (None: no turn)."""
    rounds: list[list[int | None]] = []
    for event in match.events:
        if event["type"] == "round":
            rounds.append([None] * len(match.players))
        elif event["type"] == "turn-end":
            rounds[-1][event["seat"]] = event["score"]
    return rounds


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMATS), st.integers(2, 4), st.integers(0, 2**32), st.booleans())
def test_a_sheet_of_a_match_s_scores_decides_as_the_match(
        played: tuple[str, Rules], players: int, seed: int, staked: bool) -> None:
    text, rules = played
    config = MatchConfig(rules, GameFormat.parse(text), NAMES[:players],
                         stake=150 if staked else 0)
    match = Match(config)
    play_out(match, {s: RandomStrategy(random.Random(seed + s)) for s in range(players)},
             random.Random(seed))
    sheet = sheet_of(config, round_scores(match))
    (game,) = sheet.games
    assert game.is_over
    assert (game.winners, game.losers) == (match.winners, match.losers)
    assert game.totals == match.totals and game.active == match.active
    assert game.payouts == match.payouts
    out = [e["seat"] for e in match.events if e["type"] == "eliminated"]
    assert [s for r in game.rounds for s in r.out] == out


def valid_rounds(rules: Rules) -> st.SearchStrategy[list[list[int]]]:
    scores = sorted(possible_scores(rules))
    return st.lists(st.lists(st.sampled_from(scores), min_size=3, max_size=3), max_size=40)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(FORMATS), valid_rounds(SUM), st.integers(0, 300))
def test_the_sheet_s_invariants_hold_whatever_is_typed(
        played: tuple[str, Rules], typed: list[list[int]], stake: int) -> None:
    text, rules = played
    sheet = ScoreSheet(MatchConfig(rules, GameFormat.parse(text), NAMES[:3], stake=stake))
    allowed = possible_scores(rules)
    for scores in typed:
        game = sheet.games[-1] if sheet.games and not sheet.games[-1].is_over else None
        playing = game.active if game else [True] * 3
        offered = [s if still and s in allowed else None
                   for s, still in zip(scores, playing, strict=True)]
        try:
            sheet.enter(offered)
        except SheetError:      # a shut box under a rule that ends the game at once, twice
            continue
    for game in sheet.games:
        for seat in range(3):
            typed_scores = [r.scores[seat] for r in game.rounds]
            assert game.totals[seat] == sum(s for s in typed_scores if s is not None)
            out_at = next((i for i, r in enumerate(game.rounds) if seat in r.out), None)
            if out_at is not None:        # once out, never a score again
                assert all(s is None for s in typed_scores[out_at + 1:])
                assert not game.active[seat]
        if game.is_over:
            assert set(game.winners) <= set(range(3)) and game.winners
            assert sum(game.payouts.values()) == (game.pot if stake else 0)
        else:
            assert game is sheet.games[-1]
    assert sum(sheet.ledger.net.values()) == 0
    assert sheet.ledger.games == sum(g.is_over for g in sheet.games)
    again = ScoreSheet.from_dict(sheet.to_dict())
    assert again.entered() == sheet.entered() and again.ledger == sheet.ledger
    if sheet.round_count:
        before = sheet.without_last_round()
        assert before.round_count == sheet.round_count - 1


@pytest.mark.parametrize(("scores", "says"), [
    ([3, 4], "2 scores for 3 players"),
    ([3, 4, 99], "Cy's score 99: no turn ends with that score under these rules (they go "
                 "from 0 to 21)"),
    ([3, None, 5], "no score for Bo: give a score for every player still in"),
    ([3, 4, True], "Cy's score True"),
])
def test_a_round_that_does_not_fit_is_refused_quoting_it(scores: list[Any], says: str) -> None:
    sheet = ScoreSheet(MatchConfig(SUM, GameFormat.parse("rounds:3"), NAMES[:3]))
    with pytest.raises(SheetError, match=says.replace("(", r"\(").replace(")", r"\)")):
        sheet.enter(scores)
    assert sheet.round_count == 0


def test_a_player_out_takes_no_score_and_two_shut_boxes_cannot_both_win() -> None:
    sheet = ScoreSheet(MatchConfig(SUM, GameFormat.parse("elimination:10"), NAMES[:3]))
    sheet.enter([12, 3, 4])
    with pytest.raises(SheetError, match="Ann is out: no score for Ann, not 3"):
        sheet.enter([3, 3, 4])
    instant = ScoreSheet(MatchConfig(SUM.replace(instant_win=True), GameFormat.parse("rounds:3"),
                                     NAMES[:3]))
    with pytest.raises(SheetError, match="2 shut boxes in one round"):
        instant.enter([0, 0, 4])
    entered = instant.enter([5, 0, None])         # Cy had no turn: Bo's shut box won at once
    assert entered.shut_box == 1 and instant.games[0].winners == (1,)


def test_a_battle_has_no_sheet_and_a_sheet_has_a_last_round() -> None:
    with pytest.raises(SheetError, match="a battle has no scores to keep"):
        ScoreSheet(MatchConfig(SUM, GameFormat.parse("battle"), NAMES[:2]))
    with pytest.raises(SheetError, match="no round to take back"):
        ScoreSheet(MatchConfig(SUM, GameFormat.parse("single"), NAMES[:2])).without_last_round()
    full = sheet_of(MatchConfig(SUM, GameFormat.parse("single"), NAMES[:2]),
                    [[1, 2]] * MAX_SHEET_ROUNDS)
    with pytest.raises(SheetError, match="the sheet is full"):
        full.enter([1, 2])
