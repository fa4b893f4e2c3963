"""The optimal-play dataset (examples/optimal_dataset.py): legal actions, the exact values of
the environment, and optimal actions worth exactly the state's value."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).parent.parent


def dataset_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("optimal_dataset",
                                                  ROOT / "examples" / "optimal_dataset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("task_id", ["shutthebox/Turn-Digits-v0",
                                     "shutthebox/Turn-Classic-Score-v0",
                                     "shutthebox/Turn-Covered-Beat40-v0"])
def test_optimal_rows_are_legal_and_carry_the_exact_values(task_id: str) -> None:
    data = dataset_module().collect(task_id, episodes=60, seed=3)
    actions = (1 << data["open"].shape[1]) + 2
    legal = np.unpackbits(data["legal"], axis=1, count=actions)
    assert legal[np.arange(len(data["action"])), data["action"]].all()
    assert np.allclose(data["action_value"], data["value"], rtol=1e-12, atol=1e-9)
    starts = data["step"] == 0
    assert starts.sum() == 60 and data["terminal"].sum() == 60
    assert np.all(data["value"][starts] == data["value"][0])      # the optimum of the task
    # a move leads to one state: its value is the reward now plus the next row's value
    following = np.where(data["terminal"], 0.0, np.roll(data["value"], -1))
    moves = data["action"] < actions - 2
    assert moves.sum() > 60
    assert np.allclose((data["value"] - data["reward"])[moves], following[moves], atol=1e-9)


def test_exploring_rows_are_worth_no_more_than_optimal_play() -> None:
    data = dataset_module().collect("shutthebox/Turn-Classic-Score-v0", episodes=80,
                                    epsilon=0.5, seed=1)
    assert np.all(data["action_value"] <= data["value"] + 1e-9)
    assert np.any(data["action_value"] < data["value"] - 1e-6)   # some random, worse choices


def test_the_script_writes_an_npz_and_refuses_a_bad_epsilon(tmp_path: Path) -> None:
    out = tmp_path / "data.npz"
    ran = subprocess.run([sys.executable, str(ROOT / "examples" / "optimal_dataset.py"),
                          "--episodes", "20", "--out", str(out)],
                         capture_output=True, text=True, check=True)
    assert "20 turns of shutthebox/Turn-Digits-v0 written" in ran.stdout
    with np.load(out) as data:
        assert str(data["task"]) == "shutthebox/Turn-Digits-v0" and len(data["action"]) > 20
    bad = subprocess.run([sys.executable, str(ROOT / "examples" / "optimal_dataset.py"),
                          "--epsilon", "2", "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode == 2 and "--epsilon must be from 0 to 1, not 2.0" in bad.stderr
    assert "Traceback" not in bad.stderr
