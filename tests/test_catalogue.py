"""One test per row of the rules catalogue (RULES.md, in the repository), named after the row."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from shutthebox.errors import FormatError, IllegalMoveError, RulesError
from shutthebox.match import GameFormat, Ledger, Match, MatchConfig
from shutthebox.rules import FirstPlayer, MoveRule, OneDie, Rules, Scoring, preset
from shutthebox.tiles import format_tiles, mask_of
from shutthebox.turn import Phase, TurnState, legal_moves

SHUT_NINE = [((4, 5), [9]), ((4, 4), [8]), ((3, 4), [7]), ((3, 3), [6]), ((2, 3), [5]),
             ((1, 3), [4]), ((1, 2), [1, 2]), ((1, 2), [3])]
"""Rolls and moves that shut a 9-tile box."""


def moves(rules: Rules, open_tiles: list[int], roll: tuple[int, ...]) -> list[str]:
    return [format_tiles(m) for m in legal_moves(rules, mask_of(open_tiles), roll)]


def play(match: Match, steps: Sequence[tuple[tuple[int, ...], list[int] | None]]) -> None:
    """Roll each roll and shut each move; a None move means the roll must end the turn."""
    for roll, tiles in steps:
        if match.pending.kind == "choose-dice":
            match.decide(len(roll))
        match.apply_roll(roll)
        if tiles is not None:
            match.decide(mask_of(tiles))


def stuck_turn(match: Match) -> None:
    """A 9-tile turn that shuts only tile 2 (score 43 with sum scoring)."""
    play(match, [((1, 1), [2]), ((1, 1), None)])


def game(fmt: str, players: int = 2, rules: Rules | None = None, stake: int = 0) -> Match:
    names = tuple(f"P{i}" for i in range(players))
    return Match(MatchConfig(rules or Rules(), GameFormat.parse(fmt), names, stake))


# --- the turn ----------------------------------------------------------------------------

@pytest.mark.parametrize("tiles", range(2, 13))
def test_tiles_from_two_to_twelve_start_open(tiles: int) -> None:
    state = TurnState.start(Rules(tiles=tiles))
    assert state.open_tiles == (1 << tiles) - 1


@pytest.mark.parametrize("tiles", [0, 1, 13, True, "9"])
def test_tiles_outside_two_to_twelve_are_refused(tiles: object) -> None:
    with pytest.raises(RulesError, match="tiles must be a whole number from 2 to 12"):
        Rules(tiles=tiles)  # type: ignore[arg-type]


def test_turn_shuts_open_tiles_adding_up_to_the_roll() -> None:
    assert moves(Rules(), list(range(1, 10)), (3, 4)) == ["7", "1 6", "2 5", "3 4", "1 2 4"]


def test_turn_roll_with_no_move_ends_the_turn_at_once() -> None:
    state = TurnState.start(Rules(), mask_of([2, 7])).apply_roll((3, 3))
    assert state.phase is Phase.OVER
    assert state.score == 9
    assert state.legal_actions() == ()


def test_turn_ends_when_every_tile_is_shut() -> None:
    state = TurnState.start(Rules(), mask_of([3])).apply_roll((1, 2)).shut(mask_of([3]))
    assert state.is_over and state.is_shut and state.score == 0


# --- dice --------------------------------------------------------------------------------

def test_two_dice_always() -> None:
    rules = preset("children")
    assert rules.one_die is OneDie.NEVER
    assert rules.dice_choices(mask_of([1])) == (2,)
    assert TurnState.start(rules, mask_of([1, 2])).phase is Phase.ROLL


def test_one_die_optional_when_open_tiles_sum_to_six_or_less() -> None:
    rules = Rules(one_die=OneDie.LOW_SUM)
    assert rules.dice_choices(mask_of([1, 2, 3])) == (1, 2)
    assert rules.dice_choices(mask_of([1, 2, 4])) == (2,)
    state = TurnState.start(rules, mask_of([2, 4]))
    assert state.phase is Phase.CHOOSE_DICE
    assert state.choose_dice(1).chance_outcomes()[0][0] == (1,)


def test_one_die_optional_when_every_tile_seven_and_up_is_shut() -> None:
    rules = Rules(one_die=OneDie.HIGH_SHUT)
    assert rules.dice_choices(mask_of([1, 2, 3, 4, 5, 6])) == (1, 2)
    assert rules.dice_choices(mask_of([1, 7])) == (2,)


def test_one_die_forced_when_every_tile_seven_and_up_is_shut() -> None:
    rules = preset("encyclopedia")
    assert rules.dice_choices(mask_of([5, 6])) == (1,)
    state = TurnState.start(rules, mask_of([5, 6]))
    assert state.phase is Phase.ROLL and state.dice == 1
    with pytest.raises(IllegalMoveError, match="roll"):
        state.apply_roll((2, 3))


def test_high_shut_trigger_holds_from_the_start_below_seven_tiles() -> None:
    assert Rules(tiles=6, one_die=OneDie.HIGH_SHUT).dice_choices((1 << 6) - 1) == (1, 2)


def test_dice_choice_is_refused_when_the_rules_allow_none() -> None:
    state = TurnState.start(Rules(one_die=OneDie.LOW_SUM), mask_of([1, 2]))
    with pytest.raises(IllegalMoveError, match="cannot roll 3 dice"):
        state.choose_dice(3)


def test_forced_one_die_needs_a_one_die_rule() -> None:
    with pytest.raises(RulesError, match="one_die_forced=True needs a one-die rule"):
        Rules(one_die_forced=True)


# --- which tiles a roll may shut ----------------------------------------------------------

def test_move_rule_any_combination() -> None:
    assert moves(Rules(), list(range(1, 10)), (3, 5)) == ["8", "1 7", "2 6", "3 5", "1 2 5",
                                                          "1 3 4"]


def test_move_rule_at_most_k_tiles() -> None:
    rules = preset("children-two-tiles")
    assert rules.max_tiles == 2
    assert moves(rules, list(range(1, 10)), (3, 5)) == ["8", "1 7", "2 6", "3 5"]
    state = TurnState.start(rules).apply_roll((3, 5))
    with pytest.raises(IllegalMoveError, match="at most 2 tiles per roll"):
        state.shut(mask_of([1, 2, 5]))


def test_move_rule_total_or_dice_faces() -> None:
    rules = Rules(tiles=12, moves=MoveRule.DICE)
    assert moves(rules, list(range(1, 13)), (2, 6)) == ["8", "6", "2 6", "2"]
    assert moves(rules, list(range(1, 13)), (3, 3)) == ["6", "3"]
    assert moves(rules, list(range(1, 13)), (4,)) == ["4"]
    assert moves(rules, [2, 6], (2, 6)) == ["6", "2 6", "2"]
    with pytest.raises(IllegalMoveError, match="dice-faces rule"):
        TurnState.start(rules).apply_roll((2, 6)).shut(mask_of([1, 7]))


# --- scoring -----------------------------------------------------------------------------

def test_scoring_sum_of_open_tiles() -> None:
    assert Rules().score(mask_of([1, 2, 7])) == 10


def test_scoring_digits_read_left_to_right() -> None:
    assert Rules(scoring=Scoring.DIGITS).score(mask_of([1, 4, 9])) == 149


def test_scoring_digits_with_ten_to_twelve_tiles() -> None:
    assert Rules(tiles=10, scoring=Scoring.DIGITS).score(mask_of([1, 10])) == 110
    assert Rules(tiles=12, scoring=Scoring.DIGITS).score(mask_of([2, 11, 12])) == 21112


def test_scoring_covered_sum_of_shut_tiles_higher_is_better() -> None:
    rules = Rules(scoring=Scoring.COVERED)
    assert rules.score(mask_of([1, 2, 7])) == 35
    assert rules.better(40, 35) and not rules.lower_is_better


@pytest.mark.parametrize(("scoring", "expected"), [("sum", 0), ("digits", 0), ("covered", 78)])
def test_shut_box_scores(scoring: str, expected: int) -> None:
    assert Rules(tiles=12, scoring=Scoring(scoring)).score(0) == expected


# --- shutting the box --------------------------------------------------------------------

def test_shut_box_wins_at_once_and_later_players_do_not_play() -> None:
    match = game("single", 3)
    play(match, SHUT_NINE)
    assert match.is_over and match.winners == (0,)
    assert not any(e["type"] == "turn" and e["seat"] == 1 for e in match.events)


def test_shut_box_instant_win_off_is_just_the_best_score() -> None:
    match = game("single", 2, Rules(instant_win=False))
    play(match, SHUT_NINE)
    assert not match.is_over and match.pending.seat == 1
    stuck_turn(match)
    assert match.winners == (0,) and match.round_scores == {0: 0, 1: 43}


# --- who starts --------------------------------------------------------------------------

def test_first_player_lowest_roll_starts() -> None:
    match = game("single", 3, Rules(first_player=FirstPlayer.LOWEST))
    for roll in [(5, 6), (1, 2), (3, 3)]:
        match.apply_roll(roll)
    assert match.order == [1, 2, 0] and match.pending.seat == 1


def test_first_player_highest_roll_starts() -> None:
    match = game("single", 3, Rules(first_player=FirstPlayer.HIGHEST))
    for roll in [(5, 6), (1, 2), (3, 3)]:
        match.apply_roll(roll)
    assert match.order == [0, 1, 2]


def test_first_player_ties_reroll_among_the_tied() -> None:
    match = game("single", 3, Rules(first_player=FirstPlayer.LOWEST))
    for roll in [(1, 2), (5, 6), (2, 1)]:
        match.apply_roll(roll)
    assert match.pending.kind == "roll-off" and match.pending.seat == 0
    match.apply_roll((4, 4))
    assert match.pending.seat == 2  # only the tied seats 0 and 2 roll again
    match.apply_roll((1, 1))
    assert match.order == [2, 0, 1]


def test_first_player_seat_order() -> None:
    match = game("single", 3)
    assert match.order == [0, 1, 2] and match.pending.kind == "roll"


# --- game formats ------------------------------------------------------------------------

def test_format_single_round_lowest_score_wins_and_ties_share() -> None:
    match = game("single", 3)
    for _ in range(3):
        stuck_turn(match)
    assert match.winners == (0, 1, 2)


def test_format_single_round_covered_scoring_highest_wins() -> None:
    match = game("single", 2, Rules(scoring=Scoring.COVERED))
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    stuck_turn(match)
    assert match.winners == (0,) and match.round_scores == {0: 11, 1: 2}


def test_format_solo_one_player_one_turn() -> None:
    match = game("solo", 1)
    stuck_turn(match)
    assert match.is_over and match.winners == (0,) and match.round_scores == {0: 43}
    with pytest.raises(FormatError, match="solo is for one player"):
        game("solo", 2)


def test_format_fixed_rounds_totals_after_r_rounds() -> None:
    match = game("rounds:2", 2)
    stuck_turn(match)
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    assert match.round == 2 and not match.is_over
    stuck_turn(match)
    stuck_turn(match)
    assert match.totals == [86, 77] and match.winners == (1,)


def test_format_elimination_applied_at_the_end_of_each_round() -> None:
    match = game("elimination:45", 3)
    stuck_turn(match)                                    # P0: 43
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])  # P1: 34
    play(match, [((4, 5), [9]), ((4, 4), [8]), ((1, 1), [2]), ((1, 1), None)])  # P2: 26
    stuck_turn(match)                                    # P0: 86, out at round end
    assert match.active == [True, True, True]            # not yet: round still running
    stuck_turn(match)                                    # P1: 77, out
    play(match, [((4, 5), [9]), ((4, 4), [8]), ((1, 1), [2]), ((1, 1), None)])  # P2: 52, out
    assert match.is_over
    assert [e["seat"] for e in match.events if e["type"] == "eliminated"] == [0, 1, 2]
    assert match.winners == (2,)  # all out together: the lowest total wins


def test_format_elimination_last_player_left_wins() -> None:
    match = game("elimination:45", 2)
    stuck_turn(match)
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    stuck_turn(match)
    play(match, [((4, 5), [9]), ((4, 4), [8]), ((1, 1), [2]), ((1, 1), None)])
    assert match.totals == [86, 60]
    assert match.winners == (1,)
    with pytest.raises(FormatError, match="needs sum or digits scoring"):
        game("elimination:45", 2, Rules(scoring=Scoring.COVERED))


def test_format_loser_at_a_limit() -> None:
    match = game("loser-at:80", 2)
    stuck_turn(match)
    stuck_turn(match)
    stuck_turn(match)
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    assert match.is_over and match.losers == (0,) and match.winners == (1,)


def test_format_race_to_a_target_with_covered_scoring() -> None:
    match = game("race:20", 2, preset("covered").replace(first_player="seat"))
    play(match, [((4, 5), [9]), ((4, 4), [8]), ((1, 1), [2]), ((1, 1), None)])   # 19
    play(match, [((4, 5), [9]), ((3, 4), [7]), ((1, 1), [2]), ((1, 1), None)])   # 18
    assert not match.is_over
    play(match, [((1, 1), [2]), ((1, 1), None)])                                 # 21
    play(match, [((1, 2), [3]), ((1, 2), [1, 2]), ((1, 1), None)])               # 24
    assert match.winners == (1,)


def test_invalid_race_with_penalty_scoring() -> None:
    with pytest.raises(FormatError, match="race to a target needs covered scoring"):
        game("race:200", 2)


def test_format_battle_knocker_rolls_first_and_wins_when_all_down() -> None:
    match = game("battle:rolls", 2, Rules(tiles=3))
    assert match.pending.seat == 0 and match.pending.role == "knock"
    match.apply_roll((1, 2))
    match.decide(mask_of([3]))
    assert match.pending.seat == 1 and match.pending.role == "stand"
    match.apply_roll((1, 1))             # the stander can stand only 3: a roll of 2 passes
    assert match.events[-2] == {"type": "pass", "seat": 1} and match.pending.seat == 0
    match.apply_roll((1, 2))
    match.decide(mask_of([1, 2]))        # all down
    assert match.is_over and match.winners == (0,)


def test_format_battle_stander_wins_when_all_up_after_a_stand() -> None:
    match = game("battle:rolls", 2, Rules(tiles=3))
    match.apply_roll((1, 2))
    match.decide(mask_of([3]))
    match.apply_roll((1, 2))
    match.decide(mask_of([3]))
    assert match.is_over and match.winners == (1,)


def test_battle_needs_exactly_two_players() -> None:
    with pytest.raises(FormatError, match="exactly two players"):
        game("battle", 3)


def test_betting_pot_winner_takes_the_pot() -> None:
    match = game("single", 3, stake=100)
    stuck_turn(match)
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    stuck_turn(match)
    assert match.payouts == {0: 0, 1: 300, 2: 0}
    ledger = Ledger()
    ledger.record(match)
    assert ledger.net == {"P0": -100, "P1": 200, "P2": -100}


def test_betting_pot_ties_split_it_and_the_ledger_runs_across_games() -> None:
    ledger = Ledger()
    for _ in range(2):
        match = game("single", 3, stake=50)
        play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
        play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
        stuck_turn(match)
        ledger.record(match)
        assert match.payouts == {0: 75, 1: 75, 2: 0}
    assert ledger.net == {"P0": 50, "P1": 50, "P2": -100} and ledger.games == 2


def test_betting_pot_odd_cents_go_to_tied_winners_in_seat_order() -> None:
    match = game("single", 3, stake=1)
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    play(match, [((4, 5), [9]), ((1, 1), [2]), ((1, 1), None)])
    stuck_turn(match)
    assert match.winners == (0, 1)
    assert match.payouts == {0: 2, 1: 1, 2: 0}
