"""Invariants of the engine, checked by hypothesis over random rules, rolls and players."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.errors import LogError
from shutthebox.match import (
    INPUT_EVENTS,
    GameFormat,
    Match,
    MatchConfig,
    advance,
    play_out,
    replay,
)
from shutthebox.players.simple import RandomStrategy
from shutthebox.rules import MoveRule, OneDie, Rules, Scoring
from shutthebox.turn import TurnState

rules_strategy = st.builds(
    lambda tiles, one_die, forced, moves, max_tiles, scoring, instant: Rules(
        tiles=tiles, one_die=one_die, one_die_forced=forced and one_die is not OneDie.NEVER,
        moves=moves, max_tiles=None if max_tiles is None else min(max_tiles, tiles),
        scoring=scoring, instant_win=instant),
    st.integers(2, 12), st.sampled_from(list(OneDie)), st.booleans(),
    st.sampled_from(list(MoveRule)), st.sampled_from([None, 1, 2, 3]),
    st.sampled_from(list(Scoring)), st.booleans())


@settings(max_examples=200, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_a_move_never_shuts_a_shut_tile_and_scores_are_never_negative(rules: Rules,
                                                                     seed: int) -> None:
    rng = random.Random(seed)
    state = TurnState.start(rules)
    while not state.is_over:
        if state.is_chance:
            state = state.roll_with(rng)
            continue
        action = rng.choice(state.legal_actions())
        if state.phase.value == "shut":
            assert action & ~state.open_tiles == 0       # only open tiles
            assert sum(i + 1 for i in range(12) if action >> i & 1) == sum(state.roll or ())\
                or rules.moves is MoveRule.DICE
        before = state.open_tiles
        state = state.apply(action)
        assert state.open_tiles & ~before == 0           # nothing reopens
        assert state.score >= 0
    assert 0 <= state.score <= max(rules.worst_score, rules.best_score)


formats = st.sampled_from(["single", "rounds:3", "elimination:30", "loser-at:40", "race:60",
                           "battle"])


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, fmt=formats, players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_random_matches_end_with_winners_totals_only_grow_and_logs_replay(
        rules: Rules, fmt: str, players: int, seed: int) -> None:
    game_format = GameFormat.parse(fmt)
    if game_format.kind.value == "battle":
        players = 2
        rules = rules.replace(tiles=min(rules.tiles, 6))
    if game_format.kind.value == "race":
        rules = rules.replace(scoring="covered")
    elif game_format.kind.value in ("elimination", "loser-at"):
        rules = rules.replace(scoring="sum")
    config = MatchConfig(rules, game_format, tuple(f"P{i}" for i in range(players)), stake=7)
    match = Match(config)
    rng = random.Random(seed)
    strategies = {i: RandomStrategy(random.Random(seed + i)) for i in range(players)}
    last_totals = list(match.totals)
    steps = 0

    def totals_only_grow(current: Match) -> None:
        nonlocal last_totals, steps
        steps += 1
        assert all(now >= then for now, then in zip(current.totals, last_totals, strict=True))
        last_totals = list(current.totals)

    play_out(match, strategies, rng, on_step=totals_only_grow)
    assert steps > 0
    assert match.is_over and match.winners
    assert sum(match.payouts.values()) == 7 * players
    again = replay(match.to_log())
    assert again.events == match.events and again.winners == match.winners
    assert again.totals == match.totals
    # A match kept from part of the log catches up with the rest (another server moved on):
    # cut where a batch of stored events ends, before an input event.
    cuts = [i for i, e in enumerate(match.events) if e["type"] in INPUT_EVENTS]
    cut = random.Random(seed).choice(cuts)
    behind = replay({**match.to_log(), "events": match.events[:cut]}) if cut else Match(config)
    advance(behind, match.events)
    assert behind.events == match.events and behind.totals == match.totals
    assert behind.winners == match.winners


def test_advance_refuses_a_log_that_does_not_continue_the_match() -> None:
    config = MatchConfig(Rules(), GameFormat.parse("single"), ("A", "B"))
    match = Match(config)
    play_out(match, {0: RandomStrategy(random.Random(1)), 1: RandomStrategy(random.Random(2))},
             random.Random(3))
    other = Match(config)
    play_out(other, {0: RandomStrategy(random.Random(4)), 1: RandomStrategy(random.Random(5))},
             random.Random(6))
    cut = [i for i, e in enumerate(match.events) if e["type"] in INPUT_EVENTS][-1]
    assert match.events[:cut] != other.events[:cut]
    behind = replay({**match.to_log(), "events": match.events[:cut]})
    with pytest.raises(LogError, match="does not continue"):
        advance(behind, other.events)
