"""The conventions researchers expect of the environments: PettingZoo's parallel API and
``max_cycles``, ``rgb_array`` frames of the box, and a match observation normalised to [0, 1]
with every index named."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test

from shutthebox.envs import ENV_ID, MATCH_ENV_ID, ShutTheBoxMatchEnv, shutthebox_v0
from shutthebox.envs.multi import (
    observation_meaning,
    score_scale,
    total_scale,
    wait_action,
)
from shutthebox.envs.render import FELT, OPEN_TILE, SHUT_TILE, draw_box
from shutthebox.envs.single import RewardError
from shutthebox.formats import GameFormat
from shutthebox.rules import preset


@pytest.mark.parametrize(("players", "fmt", "rules"), [
    (2, "single", "classic"), (3, "rounds:2", "pub"), (2, "battle", "classic"),
    (2, "race:100", "covered")])
def test_pettingzoo_parallel_api_test_passes(players: int, fmt: str, rules: str) -> None:
    parallel_api_test(shutthebox_v0.parallel_env(players=players, format=fmt, rules=rules),
                      num_cycles=300)


def test_max_cycles_truncates_the_parallel_match_after_that_many_actions() -> None:
    """The parallel half of PettingZoo's ``max_cycles_test``, with its random actions."""
    env = shutthebox_v0.parallel_env(max_cycles=4)
    env.reset(seed=2)
    steps = 0
    for steps in range(1, 15):    # noqa: B007 - read after the loop
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        _, _, terminations, truncations, _ = env.step(actions)
        if all(terminations[a] or truncations[a] for a in terminations):
            break
    assert steps == 4 and all(truncations.values()) and not any(terminations.values())
    assert env.agents == []
    with pytest.raises(RewardError, match="max_cycles must be a whole number of at least 1, "
                                          "not 0"):
        shutthebox_v0.raw_env(max_cycles=0)


def test_pettingzoo_max_cycles_test_passes_on_the_module() -> None:
    """Both halves, several times: its seeds and random actions are its own."""
    for _ in range(5):
        max_cycles_test(shutthebox_v0)


@pytest.mark.parametrize(("players", "fmt"), [(2, "single"), (3, "rounds:2")])
def test_max_cycles_asks_every_agent_once_a_cycle_and_truncates_after_that_many_decisions(
        players: int, fmt: str) -> None:
    """A cycle is one decision, each other agent waiting once before it; the match is cut
    off after ``max_cycles`` decisions, however many of them one player makes in a row."""
    cycles = 7
    env = shutthebox_v0.raw_env(players=players, format=fmt, max_cycles=cycles)
    wait = wait_action(env.rules)
    assert env.actions == wait + 1 and env.observe("player_0")["action_mask"].shape == (wait + 1,)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    asked: list[str] = []
    deciders: list[str] = []
    while env.agents and not env.truncations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        deciding = env.possible_agents[env.match.pending.seat or 0]
        if agent == deciding:
            assert mask[wait] == 0 and mask.sum() >= 1
            deciders.append(agent)
        else:
            assert np.flatnonzero(mask).tolist() == [wait]
        asked.append(agent)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert len(deciders) == cycles
    assert len(set(deciders)) < players          # one player decided several times in a row
    assert asked == [a for d in deciders for a in [*sorted(set(env.possible_agents) - {d}), d]]
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(asked.count(agent) == cycles for agent in env.possible_agents)
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(wait)                           # a dead agent steps with None alone
    dead = []
    while env.agents:
        dead.append(env.agent_selection)
        env.step(None)
    assert sorted(dead) == env.possible_agents


def test_without_waits_max_cycles_still_counts_decisions() -> None:
    env = shutthebox_v0.raw_env(max_cycles=5, waits=False)
    assert env.actions == wait_action(env.rules)
    env.reset(seed=3)
    asked = []
    while not env.truncations[env.agent_selection]:
        asked.append(env.agent_selection)
        env.step(env.action_space(env.agent_selection).sample())
    assert asked == ["player_0"] * 5             # the first player's turn is longer than 5
    with pytest.raises(RewardError, match="waits must be True, False or None, not 'yes'"):
        shutthebox_v0.raw_env(waits="yes")


def test_pettingzoo_api_test_passes_with_waits() -> None:
    api_test(shutthebox_v0.env(players=3, format="rounds:2", waits=True), num_cycles=200)
    api_test(shutthebox_v0.env(max_cycles=40), num_cycles=200)


def test_an_agents_action_space_samples_its_legal_actions() -> None:
    env = shutthebox_v0.raw_env(players=2, format="rounds:2")
    env.reset(seed=4)
    for _ in range(200):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        action = env.action_space(agent).sample()
        assert env.observe(agent)["action_mask"][action] == 1
        env.step(action)
    assert env.terminations[env.agent_selection]


def test_rgb_array_frames_show_the_box_and_the_dice() -> None:
    rules = preset("family-12")
    frame = draw_box(rules.tiles, 0b101101110111, (3, 5))
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    tile_row = frame[10]                  # across the raised tiles, above the shut ones
    centres = [4 + (tile - 1) * 26 + 3 for tile in range(1, 13)]
    raised = [tuple(tile_row[x]) == OPEN_TILE for x in centres]
    assert raised == [bool(0b101101110111 >> i & 1) for i in range(12)]
    assert tuple(frame[36, centres[3]]) == SHUT_TILE    # tile 4 is shut: lowered and dark
    no_dice = draw_box(rules.tiles, 0b101101110111, None)
    assert no_dice.shape == frame.shape and tuple(no_dice[45, 10]) == FELT
    assert tuple(frame[45, 10]) != FELT                  # the first die is drawn


@pytest.mark.parametrize("make", [
    lambda: gymnasium.make(ENV_ID, rules="family-12", render_mode="rgb_array"),
    lambda: gymnasium.make(MATCH_ENV_ID, format="rounds:2", render_mode="rgb_array")],
    ids=["turn", "match"])
def test_gymnasium_envs_render_frames_of_one_size_through_an_episode(make: Any) -> None:
    env = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    _, info = env.reset(seed=1)
    frames = [env.render()]
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        frames.append(env.render())
    assert len({frame.shape for frame in frames}) == 1
    assert all(frame.dtype == np.uint8 for frame in frames)
    assert len({frame.tobytes() for frame in frames}) > 2     # the box changes as it is played


def test_pettingzoo_render_test_passes_in_both_modes() -> None:
    render_test(lambda render_mode=None: shutthebox_v0.env(render_mode=render_mode))


def test_the_ansi_match_shows_the_open_tiles_not_a_number() -> None:
    env = ShutTheBoxMatchEnv(render_mode="ansi")
    env.reset(seed=0)
    assert "open: 1 2 3 4 5 6 7 8 9" in str(env.render())


@pytest.mark.parametrize(("fmt", "rules", "players"), [
    ("rounds:3", "classic", 2), ("race:100", "covered", 3), ("elimination:45", "pub", 2),
    ("battle", "classic", 2), ("single", "children-digits", 3)])
def test_the_match_observation_is_normalised_and_named_index_by_index(
        fmt: str, rules: str, players: int) -> None:
    env = shutthebox_v0.raw_env(players=players, format=fmt, rules=rules)
    tiles = env.rules.tiles
    space: Any = env.observation_space("player_0")
    assert len(observation_meaning(tiles, players)) == space["observation"].shape[0]
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    seen_score = False
    for _ in range(3000):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        observation = env.observe(agent)["observation"]
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        for seat, score in env.match.round_scores.items():
            assert observation[tiles + 3 + players + seat] == pytest.approx(
                abs(score) / score_scale(env.rules))
            seen_score = True
        for seat, total in enumerate(env.match.totals):
            assert observation[tiles + 3 + 2 * players + seat] == pytest.approx(
                min(abs(total) / total_scale(env.rules, GameFormat.parse(fmt)), 1.0))
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert seen_score or fmt == "battle"     # a battle posts no round scores


def test_the_turn_task_ids_make_gymnasium_envs() -> None:
    assert gymnasium.spec("shutthebox/Turn-Digits-v0").kwargs["reward"] == "end-score"
