"""The examples run (a few hundred steps each) and measure against the exact optimum."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from shutthebox.rules import Rules
from shutthebox.solver import solve

EXAMPLES = Path(__file__).parent.parent / "examples"
OPTIMUM = 45 - solve(Rules(), "score").value()
"""The best expected covered sum of the 9-tile turn: no policy's average return beats it."""


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_q_learning_learns_and_measures_its_regret() -> None:
    q_learning = example("q_learning")
    result = q_learning.run(episodes=300, evaluation=400)
    assert result.steps >= 300 and result.optimum == pytest.approx(OPTIMUM)
    assert "regret" in result.report(total=45)
    assert 0 <= result.mean_return <= 45
    assert result.regret > -3 * result.half_width


def test_maskable_ppo_trains_on_the_vector_env_and_measures_its_regret() -> None:
    maskable_ppo = example("maskable_ppo")
    model = maskable_ppo.train(steps=300, games=4, n_steps=64)
    assert model.num_timesteps >= 300
    mean, half_width, optimum = maskable_ppo.evaluate(model, episodes=300, games=50)
    assert optimum == pytest.approx(OPTIMUM)
    assert 0 <= mean <= 45 and OPTIMUM - mean > -3 * half_width
