"""The OpenSpiel games (the ``openspiel`` extra): OpenSpiel's own random simulation test, and
the games' values, found by a search over OpenSpiel's state API alone, equal to the solver's
exact values."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not "
                                                "installed: pip install 'shutthebox[openspiel]'")

from shutthebox.envs import openspiel  # noqa: E402 - registers the games, needs pyspiel
from shutthebox.envs.multi import observation_vector  # noqa: E402
from shutthebox.solver import solve, solve_match  # noqa: E402


@pytest.mark.parametrize("spec", [
    "python_shutthebox_turn", "python_shutthebox_turn(rules=family-12,reward=beat:10)",
    "python_shutthebox_turn(rules=encyclopedia,reward=shut)",
    "python_shutthebox_turn(rules=children-digits,reward=end-score)",
    "python_shutthebox_match", "python_shutthebox_match(rules=pub,format=rounds:2)"])
def test_openspiels_random_simulation_test_passes(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=20, serialize=False,
                            verbose=False)


def test_openspiels_random_simulation_test_passes_the_battle() -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_shutthebox_match(format=battle)"),
                            num_sims=2, serialize=False, verbose=False)


def search(game: Any) -> list[float]:
    """Each player's value of the game under optimal play, from OpenSpiel's state API alone:
    chance nodes averaged, each player maximising its own return (the match is constant
    sum), positions remembered by their string."""
    @cache
    def value(key: str) -> tuple[float, ...]:
        state = states[key]
        if state.is_terminal():
            return tuple(state.returns())
        if state.is_chance_node():
            total = np.zeros(game.num_players())
            for outcome, p in state.chance_outcomes():
                total += p * np.array(child(state, outcome))
            return tuple(total)
        player = state.current_player()
        return max((child(state, a) for a in state.legal_actions()), key=lambda v: v[player])

    def child(state: Any, action: int) -> tuple[float, ...]:
        after = state.child(action)
        states.setdefault(str(after), after)
        return value(str(after))

    states: dict[str, Any] = {}
    start = game.new_initial_state()
    states[str(start)] = start
    return list(value(str(start)))


@pytest.mark.parametrize(("spec", "objective"), [
    ("python_shutthebox_turn(rules=pub,tiles=6,reward=score)", None),
    ("python_shutthebox_turn(rules=lever-9,tiles=6,reward=beat:4)", "beat:4"),
    ("python_shutthebox_turn(rules=children-digits,tiles=5,reward=end-score)", None)])
def test_the_turn_games_value_is_the_solvers(spec: str, objective: str | None) -> None:
    game = pyspiel.load_game(spec)
    assert search(game)[0] == pytest.approx(solve(game.rules, game.objective).value(),
                                            abs=1e-12)


def test_the_match_games_value_is_the_match_solvers() -> None:
    game = pyspiel.load_game("python_shutthebox_match(rules=classic,tiles=4,format=single)")
    first, second = search(game)
    win = solve_match(game.rules, game.config.format).win
    assert first == pytest.approx(win[0], abs=1e-12) and second == pytest.approx(win[1],
                                                                                abs=1e-12)


def test_the_observation_tensors_are_the_environments() -> None:
    game = pyspiel.load_game("python_shutthebox_match(format=rounds:2)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if not state.is_chance_node():
            player = state.current_player()
            assert np.allclose(state.observation_tensor(player),
                               observation_vector(state.match).astype(np.float32))
            action = int(rng.choice(state.legal_actions()))
        else:
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=chances))
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)
    assert openspiel.MATCH_GAME in pyspiel.registered_names()


def test_the_mcts_example_plays_turns_and_measures_them_against_the_optimum() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "openspiel_mcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    game = pyspiel.load_game(openspiel.TURN_GAME, {"rules": "classic", "reward": "beat:10"})
    returns = example.play(game, turns=3, simulations=10, seed=0)
    assert len(returns) == 3 and set(returns) <= {0.0, 1.0}
