"""The coach's analysis of a game (:mod:`shutthebox.coach.analysis`): luck (the player's own
dice), the others' dice, the others' mistakes and the player's own add up exactly in every
format and over random games of every preset, an opponent's blunders are never luck, the start
and the result are the solver's and the match's own, the accuracy scale, the mistake sizes,
and the reasons given for costly moves."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox import coach
from shutthebox.coach.accuracy import decision_accuracy, game_accuracy, size_of, size_threshold
from shutthebox.coach.analysis import PlayerAnalysis, analyse
from shutthebox.dice import roll_outcomes
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.players.base import Strategy
from shutthebox.rules import PRESETS, FirstPlayer, Rules
from shutthebox.solver import Solution, solve
from shutthebox.solver.matchplay import solve_match
from shutthebox.solver.rounds import solve_round
from shutthebox.strategies import make_strategy
from tests.test_coach import FORMATS, PLAYERS, SMALL
from tests.test_solver_cli import run

STRENGTHS = ("random", "highest-first", "fewest-tiles", "optimal")


def identity_gap(p: PlayerAnalysis) -> float:
    """How far start + sense * (luck + others' dice + others' mistakes - cost) is from the
    result (0: the identity holds)."""
    return p.start + p.sense * (p.luck + p.others_dice + p.others_mistakes - p.cost) - p.result


def rolls_luck(log: dict[str, Any], turn: Solution, seat: int) -> float:
    """What ``seat``'s rolls did, worked out from ``turn``'s tables as the log replays: for
    each roll, the value of the roll got (its best move's) less the average over every roll
    the dice could give."""
    luck = 0.0
    match = Match(MatchConfig.from_dict(log))
    for event in log["events"]:
        if event["type"] == "roll":
            state = match.pending.turn
            assert state is not None
            if match.pending.seat == seat:
                average = sum(float(p) * float(turn.after_roll(state.open_tiles, r))
                              for r, p in roll_outcomes(state.dice))
                luck += float(turn.after_roll(state.open_tiles,
                                              tuple(sorted(event["roll"])))) - average
            match.apply_roll(tuple(event["roll"]))
        elif event["type"] == "dice":
            match.decide(event["dice"])
        elif event["type"] == "shut":
            match.decide(sum(1 << (t - 1) for t in event["tiles"]))
    return luck


def random_game(game_format: str, players: int, rules: Rules, seed: int,
                strengths: tuple[str, ...] = STRENGTHS) -> dict[str, Any]:
    """A match between computer players of random ``strengths``, played with seeded dice."""
    rng = random.Random(seed)
    seats: dict[int, Strategy] = {
        seat: make_strategy(rng.choice(strengths), rules, random.Random(seed + seat))
        for seat in range(players)}
    match = Match(MatchConfig(rules, GameFormat.parse(game_format), PLAYERS[:players]))
    play_out(match, seats, rng)
    return match.to_log()


CASES = [*FORMATS, ("single", 2, SMALL.replace(first_player=FirstPlayer.LOWEST)),
         ("rounds:2", 2, SMALL.replace(first_player=FirstPlayer.HIGHEST))]


@pytest.mark.parametrize(("game_format", "players", "rules"), CASES,
                         ids=[f"{f}-{n}-{r.first_player}" for f, n, r in CASES])
def test_luck_the_others_dice_and_mistakes_and_the_cost_add_up_in_every_format(
        game_format: str, players: int, rules: Rules) -> None:
    for seed in range(6):
        log = random_game(game_format, players, rules, seed)
        analysis = analyse(log)
        for p in analysis.players:
            assert identity_gap(p) == pytest.approx(0.0, abs=1e-9)
            assert p.cost >= 0
        if players == 2 and analysis.players[0].against_others:
            # each roll is the mover's luck and the other's dice, each cost the other's gift
            ann, bo = analysis.players
            assert ann.dice + ann.others_dice == pytest.approx(-(bo.dice + bo.others_dice),
                                                               abs=1e-9)
            assert (ann.others_mistakes, bo.others_mistakes) == pytest.approx(
                (bo.cost, ann.cost), abs=1e-12)
        # the cost is the review's, decision by decision
        assert [d.to_dict() for d in analysis.review] == [d.to_dict() for d in
                                                           coach.review(log)]
        totals = coach.review(log).total_costs()
        assert {p.player: p.cost for p in analysis.players} == pytest.approx(
            {name: totals.get(name, 0.0) for name in log["players"]})


PRESET_CASES = [("solo", 1, True), ("single", 2, True), ("single", 3, True),
                ("rounds:2", 2, False), ("rounds:2", 3, False)]
"""Formats for every preset: the match tables of the multi-round formats take minutes on 9
tiles or more, so those are judged by the expected score (``match_tables=False``)."""


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), case=st.sampled_from(PRESET_CASES),
       seed=st.integers(0, 10**6))
def test_the_four_terms_add_up_exactly_over_random_games_of_every_preset(
        name: str, case: tuple[str, int, bool], seed: int) -> None:
    game_format, players, match_tables = case
    # Judged by the expected score, the game is played by it too: the match player's tables
    # of a multi-round digit-scored game take about a minute to make, and the identity holds
    # whoever made the moves.
    strengths = STRENGTHS if match_tables else (*STRENGTHS[:-1], "optimal:score")
    log = random_game(game_format, players, PRESETS[name].rules, seed, strengths)
    analysis = analyse(log, match_tables=match_tables)
    for p in analysis.players:
        assert abs(identity_gap(p)) <= 1e-9
        assert p.cost >= 0
        if not p.against_others:   # alone, or by the expected score of one's own turns
            assert p.others_dice == p.others_mistakes == 0
        assert p.split_exact == (players <= 2 or not p.against_others)
    costs = [p.cost for p in analysis.players]
    gifts = [p.others_mistakes for p in analysis.players]
    if players == 2 and analysis.players[0].against_others:
        assert gifts == pytest.approx(costs[::-1], abs=1e-12)
    elif players > 2 and analysis.players[0].against_others:
        # what a mover lost, the others gained together: every cost is given out once
        assert all(g >= 0 for g in gifts)
        assert sum(gifts) == pytest.approx(sum(costs), abs=1e-9)


def play_against_a_blunderer(rules: Rules, seed: int) -> dict[str, Any]:
    """A single round: Ann (first) plays the best choice at every decision, Bo the worst."""
    rng = random.Random(seed)
    match = Match(MatchConfig(rules, GameFormat.parse("single"), ("Ann", "Bo")))
    while not match.is_over:
        pending = match.pending
        if pending.is_chance:
            match.roll(rng)
            continue
        assert pending.turn is not None
        ranked = coach.aim(rules, match.situation()).ranked(pending.turn)
        match.decide(ranked[0][0] if pending.seat == 0 else ranked[-1][0])
    return match.to_log()


def test_an_opponents_blunders_are_never_the_optimal_players_luck() -> None:
    """Ann plays perfectly and first, Bo blunders at every decision. Ann's luck is what her
    own rolls did, worked out here from the exact round's tables (her chance to win before
    and after each roll); Bo's blunders are counted apart, as the others' mistakes, to the
    cost; and the others' dice are what is left."""
    rules = SMALL
    exact = solve_round(rules, 2)
    ann_turn = solve(rules, exact.objective(0))
    found = 0
    for seed in range(30):
        log = play_against_a_blunderer(rules, seed)
        ann, bo = analyse(log).players
        if bo.cost < 0.04:   # Ann shut the box, or Bo's worst was no blunder
            continue
        found += 1
        luck = rolls_luck(log, ann_turn, seat=0)
        assert ann.cost == pytest.approx(0.0, abs=1e-12) and ann.accuracy == pytest.approx(100)
        assert ann.start == pytest.approx(exact.win[0], abs=1e-12)
        assert ann.luck == pytest.approx(luck, abs=1e-12)
        assert ann.others_mistakes == pytest.approx(bo.cost, abs=1e-12)
        assert ann.result - ann.start == pytest.approx(
            ann.luck + ann.others_dice + ann.others_mistakes, abs=1e-12)
        said = ann.sentence()
        assert f"luck (own dice) {ann.luck * 100:+.1f}" in said
        assert f"the others' mistakes {bo.cost * 100:+.1f}" in said
    assert found >= 3


@pytest.mark.parametrize(("game_format", "players", "rules"), CASES,
                         ids=[f"{f}-{n}-{r.first_player}" for f, n, r in CASES])
def test_the_start_is_the_solvers_chance_and_the_result_the_share_of_the_win(
        game_format: str, players: int, rules: Rules) -> None:
    if players == 1:
        pytest.skip("alone, the value is the expected score (the next test)")
    log = random_game(game_format, players, rules, seed=3)
    analysis = analyse(log)
    winners = [e for e in log["events"] if e["type"] == "winner"][-1]["seats"]
    fmt = GameFormat.parse(game_format)
    rolled_off = rules.first_player is not FirstPlayer.SEAT
    first = next(e["seat"] for e in log["events"] if e["type"] == "first")
    order = [(first + i) % players for i in range(players)]
    match_rules = Rules.from_dict(log["rules"])
    if fmt.kind.value == "single":
        exact = dict(zip(order, solve_round(match_rules, players).win, strict=True))
    elif players == 2:
        table = solve_match(match_rules, fmt)
        exact = {order[0]: table.first_win, order[1]: 1 - table.first_win}
    else:
        exact = dict.fromkeys(order, 1 / players)
    for p in analysis.players:
        assert p.measure == "chance to win"
        assert p.start == pytest.approx(1 / players if rolled_off else exact[p.seat])
        assert p.result == (1 / len(winners) if p.seat in winners else 0.0)
        assert p.exact == (players == 2 or fmt.kind.value == "single")
    assert analysis.moments[0].kind == "start" and analysis.moments[-1].kind == "end"
    assert analysis.moments[-1].values == {p.seat: p.result for p in analysis.players}


def test_alone_the_luck_is_each_rolls_move_of_the_expected_score() -> None:
    """In a solo game, computed here from the solver's tables: the start is the expected
    score, each roll's luck is the best move's value for it against the average over every
    roll, and the result is the score the turn ended with."""
    rules = SMALL
    score = solve(rules, "score")
    for seed in range(10):
        log = random_game("solo", 1, rules, seed)
        (player,) = analyse(log).players
        luck = -rolls_luck(log, score, seat=0)   # a lower expected score is good luck
        ended = next(e for e in log["events"] if e["type"] == "turn-end")
        assert player.measure == "expected score" and player.sense == -1
        assert player.start == pytest.approx(float(score.value()))
        assert player.result == pytest.approx(ended["score"], abs=1e-9)
        assert player.luck == pytest.approx(luck, abs=1e-9)
        assert player.others_dice == player.others_mistakes == 0
        assert not player.against_others


def test_a_perfect_player_has_accuracy_100_and_no_mistakes() -> None:
    for game_format, players, rules in FORMATS:
        seats: dict[int, Strategy] = {s: make_strategy("optimal", rules, random.Random(s))
                                      for s in range(players)}
        match = Match(MatchConfig(rules, GameFormat.parse(game_format), PLAYERS[:players]))
        play_out(match, seats, random.Random(5))
        for p in analyse(match.to_log()).players:
            assert p.accuracy == pytest.approx(100.0, abs=1e-6), (game_format, p)
            assert p.sizes() == {"inaccuracy": 0, "mistake": 0, "blunder": 0}
            assert p.cost == pytest.approx(0.0, abs=1e-9)


def test_the_accuracy_scale_halves_at_each_mistake_threshold_in_every_unit() -> None:
    for unit, threshold in coach.COSTLY.items():
        assert decision_accuracy(0.0, unit) == 100.0
        assert decision_accuracy(threshold, unit) == pytest.approx(50.0)
        assert decision_accuracy(3 * threshold, unit) == pytest.approx(12.5)
    # half a point of expected score weighs as one percentage point of a chance
    assert decision_accuracy(0.5, "points") == decision_accuracy(1.0, "percentage points")
    assert game_accuracy([]) == 100.0


def test_mistakes_are_sized_by_thresholds_in_the_objectives_unit() -> None:
    assert size_threshold("mistake", "points") == coach.COSTLY["points"]
    assert size_threshold("mistake", "percentage points") == coach.COSTLY["percentage points"]
    assert size_of(0.19, "points") is None and size_of(0.2, "points") == "inaccuracy"
    assert size_of(0.5, "points") == "mistake" and size_of(1.99, "points") == "mistake"
    assert size_of(2.0, "points") == "blunder"
    assert size_of(0.39, "percentage points") is None
    assert size_of(4.0, "percentage points") == "blunder"


def test_a_worse_player_scores_a_lower_accuracy() -> None:
    """Over the same seeded games alone, the random player is less accurate than the
    highest-first player, which is less accurate than the optimal one."""
    accuracy: dict[str, list[float]] = {}
    for name in ("random", "highest-first", "optimal"):
        for seed in range(20):
            match = Match(MatchConfig(SMALL, GameFormat.parse("solo"), ("Ann",)))
            play_out(match, {0: make_strategy(name, SMALL, random.Random(seed))},
                     random.Random(seed))
            accuracy.setdefault(name, []).append(analyse(match.to_log()).players[0].accuracy)
    mean = {name: sum(values) / len(values) for name, values in accuracy.items()}
    assert mean["random"] < mean["highest-first"] < mean["optimal"] == pytest.approx(100.0)


def test_every_costly_move_comes_with_why_the_best_was_better() -> None:
    seen = 0
    for seed in range(10):
        log = random_game("single", 2, SMALL, seed)
        analysis = analyse(log)
        data = analysis.to_dict()
        marked = {m["index"]: m for m in data["marks"]}
        for d in analysis.review:
            why = marked.get(d.index, {}).get("why")
            assert (why is not None) == d.costly
            if why:
                seen += 1
                assert d.describe(d.best) in why and "to shut" in why and "\n" not in why
    assert seen


def test_review_json_gives_luck_skill_accuracy_and_the_chart(tmp_path: Path) -> None:
    log = random_game("rounds:2", 2, SMALL, seed=4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    result = run("review", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == json.loads(json.dumps(analyse(log).to_dict()))
    for p in data["players"]:
        assert p["start"] + p["sense"] * (p["luck"] + p["others_dice"] + p["others_mistakes"]
                                          - p["cost"]) == pytest.approx(p["result"])
        assert p["against_others"] and p["split_exact"]
        assert "luck (own dice)" in p["sentence"] and "the others' mistakes" in p["sentence"]
        assert 0 <= p["accuracy"] <= 100 and set(p["sizes"]) == {"inaccuracy", "mistake",
                                                                   "blunder"}
    assert [m["kind"] for m in data["moments"]][::len(data["moments"]) - 1] == ["start", "end"]
    assert data["thresholds"]["mistake"] == {"points": 0.5, "percentage points": 1.0}


def test_review_plot_draws_the_chance_to_win_move_by_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_game("single", 2, SMALL, seed=2)))
    result = run("review", str(path), "--plot", str(tmp_path / "chart.png"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "accuracy" in result.stdout and "luck (own dice)" in result.stdout
    assert "the others' dice" in result.stdout and "the others' mistakes" in result.stdout
    refused = run("review", str(path), "--plot", str(tmp_path / "chart.gif"))
    assert refused.returncode == 2 and "use a .png or .svg file" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.splitlines()) == 1


def test_a_game_under_way_ends_where_it_stands() -> None:
    """A game not over (the page reviews a game in progress): the identity holds, and each
    result is the value where the game stands, not a loss."""
    rng = random.Random(8)
    match = Match(MatchConfig(SMALL, GameFormat.parse("rounds:2"), PLAYERS[:2]))
    steps = 0
    while steps < 12:
        if match.pending.is_chance:
            match.roll(rng)
        else:
            assert match.pending.turn is not None
            match.decide(rng.choice(match.pending.turn.legal_actions()))
        steps += 1
    analysis = analyse(match.to_log())
    assert not match.is_over and analysis.moments[-1].kind == "now"
    for p in analysis.players:
        assert identity_gap(p) == pytest.approx(0.0, abs=1e-9)
        assert 0 < p.result < 1
    assert sum(p.result for p in analysis.players) == pytest.approx(1.0)


def test_why_names_what_each_choice_keeps_open_and_the_chance_to_shut_from_each() -> None:
    from shutthebox.coach import explain
    from shutthebox.coach.explain import dead_roll_chance
    from shutthebox.tiles import mask_of
    from shutthebox.turn import Phase, TurnState

    shut = solve(SMALL, "shut")
    state = TurnState(SMALL, mask_of([1, 2, 3]), Phase.CHOOSE_DICE)
    why = explain(state, 2, 1)
    assert why.startswith("Rolling 2 dice with 1 2 3 open gives "
                          f"{float(shut.dice_value(state.open_tiles, 2)) * 100:.1f} % to shut")
    assert f"1 die was better: {float(shut.dice_value(state.open_tiles, 1)) * 100:.1f} %" in why
    after = TurnState.start(SMALL).apply_roll((5, 6))
    why = explain(after, mask_of([6, 5]), mask_of([6, 4, 1]))
    left = mask_of([1, 2, 3, 4])   # 11 and 12 fit nothing: 3 rolls in 36
    assert dead_roll_chance(SMALL, left, 2) == pytest.approx(3 / 36)
    assert why.startswith(f"Shutting 5 6 keeps 1 2 3 4 open: "
                          f"{float(shut.value(left)) * 100:.1f} % to shut the box, and "
                          "8.3 % that the next roll fits nothing; 1 4 6 was better: it keeps "
                          "2 3 5 open")
    assert "every roll fits a move" not in why.split(";")[0]
    last = TurnState(SMALL, mask_of([6]), Phase.SHUT, dice=2, roll=(1, 5))
    assert "Shutting 6 shuts the box" in explain(last, mask_of([6]), mask_of([6]))
