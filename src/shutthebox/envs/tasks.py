"""The task suite: named, versioned environments for papers, each with its exact optimum.

Every task is a registered Gymnasium id (``shutthebox/<name>-v0``) over the turn environment
(:class:`~shutthebox.envs.single.ShutTheBoxEnv`) or the match environment against the
optimal player (:class:`~shutthebox.envs.matchplay.ShutTheBoxMatchEnv`). A task's version
changes whenever its rules, reward, opponents or observation change, so a published figure
names the problem it was measured on. The ``recommended`` tasks are those where the best
simple player (:mod:`shutthebox.players.simple`) is measured far from the optimum
(``benchmarks/baselines.py`` prints the table and the manual carries it); on the others a
one-line heuristic is within a fraction of a percent of optimal play.

>>> task = TASKS["shutthebox/Turn-Digits-v0"]
>>> task.rules, task.reward, task.recommended
('children-digits', 'end-score', True)
>>> round(task.optimum(), 2)
-14762.17
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium

from shutthebox.errors import ShutTheBoxError


class UnknownTaskError(ShutTheBoxError):
    """A task id the suite does not have."""


@dataclass(frozen=True)
class Task:
    """One problem of the suite: the environment and what it is made with."""

    id: str
    summary: str
    rules: str
    """A rules preset (:mod:`shutthebox.rules`)."""
    reward: str = "score"
    """The turn's reward (turn tasks)."""
    format: str | None = None
    """The match format (match tasks, against ``opponents`` optimal players)."""
    opponents: int = 1
    recommended: bool = False
    kwargs: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_match(self) -> bool:
        return self.format is not None

    def make(self, **kwargs: Any) -> gymnasium.Env[Any, int]:
        """The task's environment (keyword arguments as ``gymnasium.make`` takes them)."""
        return gymnasium.make(self.id, **kwargs)

    def optimum(self) -> float:
        """The exact optimal return: the expected return of optimal play on a turn task, the
        chance that an optimal player wins the match against the optimal player (seated as
        the agent is) on a match task."""
        if self.format is None:
            from shutthebox.envs.single import ShutTheBoxEnv
            from shutthebox.solver import solve

            env = ShutTheBoxEnv(rules=self.rules, reward=self.reward)
            return float(solve(env.rules, env.objective).value())
        from shutthebox.envs.matchplay import ShutTheBoxMatchEnv
        from shutthebox.solver.rounds import solve_round

        match_env = ShutTheBoxMatchEnv(rules=self.rules, format=self.format,
                                       opponents=("optimal",) * self.opponents,
                                       baseline=False)
        if self.format == "single":
            return float(solve_round(match_env.rules, self.opponents + 1).win[match_env.seat])
        return float(match_env.baseline.solution.win[match_env.seat])

    def entry(self) -> tuple[str, dict[str, Any]]:
        """The entry point and keyword arguments it is registered with."""
        if self.format is None:
            return ("shutthebox.envs.single:ShutTheBoxEnv",
                    {"rules": self.rules, "reward": self.reward, **self.kwargs})
        return ("shutthebox.envs.matchplay:ShutTheBoxMatchEnv",
                {"rules": self.rules, "format": self.format,
                 "opponents": ("optimal",) * self.opponents, **self.kwargs})


SUITE = (
    Task("shutthebox/Turn-Classic-Score-v0",
         "9 tiles, two dice; the tiles shut are paid (the flagship, little headroom)",
         "classic", "score"),
    Task("shutthebox/Turn-Classic-Beat4-v0",
         "9 tiles, two dice; 1 for a score under 4 (a hard target)", "classic", "beat:4",
         recommended=True),
    Task("shutthebox/Turn-Box12-Score-v0",
         "12 tiles, two dice; the tiles shut are paid", "box-12", "score"),
    Task("shutthebox/Turn-Family12-Beat10-v0",
         "12 tiles, one die at a sum of 6 or less; 1 for a score under 10",
         "family-12", "beat:10"),
    Task("shutthebox/Turn-Digits-v0",
         "9 tiles, digits scoring (the open tiles read as one number); minus the score",
         "children-digits", "end-score", recommended=True),
    Task("shutthebox/Turn-Digits-Beat200-v0",
         "9 tiles, digits scoring; 1 for a score under 200", "children-digits", "beat:200",
         recommended=True),
    Task("shutthebox/Turn-Covered-Beat40-v0",
         "9 tiles, covered scoring (the shut tiles, higher wins), one die forced once 7-9 "
         "are shut; 1 for a score over 40", "covered", "beat:40", recommended=True),
    Task("shutthebox/Match-Classic-Single-v0",
         "one deciding round against the optimal player, the agent first", "classic",
         format="single"),
    Task("shutthebox/Match-Classic-Single4-v0",
         "one deciding round of four, the agent first against three optimal players",
         "classic", format="single", opponents=3),
    Task("shutthebox/Match-Classic-Rounds3-v0",
         "three rounds against the optimal player, the lowest total wins", "classic",
         format="rounds:3"),
    Task("shutthebox/Match-Classic-Battle-v0",
         "the battle (knocker and stander) against the optimal player", "classic",
         format="battle"),
)
"""The tasks, turn tasks first."""

TASKS = {task.id: task for task in SUITE}


def task(task_id: str) -> Task:
    """A task by id.

    Raises:
        UnknownTaskError: no task has that id.
    """
    try:
        return TASKS[task_id]
    except KeyError:
        raise UnknownTaskError(f"unknown task {task_id!r}: known are "
                               f"{', '.join(TASKS)}") from None


def register_tasks() -> None:
    """Register every task with Gymnasium (done on ``import shutthebox.envs``)."""
    for one in SUITE:
        if one.id not in gymnasium.registry:
            entry_point, kwargs = one.entry()
            gymnasium.register(id=one.id, entry_point=entry_point, kwargs=kwargs)
