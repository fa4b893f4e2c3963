"""The coach: what to play at a decision, what each choice costs, and how a game was played.

Every answer is in the unit of what the optimal player aims at in that position (its
:class:`Aim`): the expected score alone, the chance to win the round in a deciding single
round, the chance to win the match in a multi-round format, the chance to win the battle in a
battle. The terminal, the web worker and the command line all ask here, so a hint and the
review of the same decision agree everywhere.

- :func:`hint` ranks the choices of a match's pending decision; :func:`rank` does it for any
  turn position and aim (the command line's hand-built positions).
- :func:`review` judges every decision of a logged game against the best, with one threshold
  (:data:`COSTLY`) for what counts as a mistake, and words the verdict.
- :func:`chances` gives the chance to shut and the expected score from the current position.

The solver is imported on first use (numpy, and numba for match tables).

>>> from shutthebox.rules import Rules
>>> from shutthebox.turn import TurnState
>>> state = TurnState.start(Rules(tiles=4)).apply_roll((1, 3))
>>> ranked = rank(state, aim(Rules(tiles=4)))
>>> ranked.measure, [(format_move(c.action), round(c.value, 3)) for c in ranked.choices]
('expected score', [('4', 4.025), ('3 1', 4.764)])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shutthebox.dice import Roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.match import Match, replay_decisions
from shutthebox.players.base import Situation
from shutthebox.rules import Rules
from shutthebox.strategies import format_move
from shutthebox.tiles import Tiles, tiles_of
from shutthebox.turn import Phase, TurnState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from shutthebox.solver.objectives import ObjectiveLike
    from shutthebox.solver.solve import Solution

EXPECTED_SCORE = "expected score"
CHANCE_TO_WIN = "chance to win"

COSTLY = {"points": 0.5, "percentage points": 1.0}
"""From which cost a decision counts as a mistake, in each unit a cost is shown in (points of
expected score, percentage points of a chance)."""


class NoDecisionError(ShutTheBoxError):
    """The match waits for something other than a decision (a roll, or nothing: it is over),
    so there is nothing to rank."""


@dataclass(frozen=True)
class Aim:
    """What a decision is judged by: the value of each choice for the player to move.

    ``solution`` is the turn solver's solution of the objective followed; a battle read by
    rolls has none (each roll is its own decision): ``situation`` then says which battle and
    role, and the values are :func:`~shutthebox.solver.players.battle_roll_values`.
    """

    rules: Rules
    measure: str
    """``'expected score'``, ``'chance to win'``, or for an objective asked for by name
    ``'chance (NAME)'`` (a chance to shut, to beat or reach a score)."""
    name: str
    """The objective's name (``score``, ``match:rounds:3``, ``battle:rolls:knock``...)."""
    solution: Solution | None = None
    situation: Situation | None = None

    @property
    def is_score(self) -> bool:
        """Whether values are expected scores (else chances, from 0 to 1)."""
        return self.measure == EXPECTED_SCORE

    def ranked(self, state: TurnState) -> list[tuple[int, float]]:
        """Every legal action of a decision with its value, best first (the first is what
        the optimal player plays; ties keep the stable move order, then two dice).

        :raises NoDecisionError: the state is not a decision.
        """
        if not state.is_decision:
            raise NoDecisionError(f"no decision to rank: the turn is at {state.phase.value!r}")
        if self.solution is None:
            return self._battle_ranked(state)
        if state.phase is Phase.CHOOSE_DICE:
            return [(d, float(v)) for d, v in self.solution.ranked_dice(state.open_tiles)]
        assert state.roll is not None
        return [(m, float(v)) for m, v in self.solution.ranked_moves(state.open_tiles,
                                                                     state.roll)]

    def _battle_ranked(self, state: TurnState) -> list[tuple[int, float]]:
        from shutthebox.solver.players import battle_roll_choice, battle_roll_values

        assert self.situation is not None
        if not state.legal_actions():
            return []
        values = battle_roll_values(self.rules, state, self.situation)
        best = battle_roll_choice(self.rules, state, self.situation)
        rest = sorted((a for a in values if a != best), key=lambda a: -values[a])
        return [(best, values[best]), *((a, values[a]) for a in rest)]

    def roll_value(self, open_tiles: Tiles, roll: Roll) -> float:
        """The value of a roll with these tiles open: its best move's, or (a roll that allows
        no move) the value of the turn ending there."""
        state = TurnState(self.rules, open_tiles, Phase.SHUT, dice=len(roll),
                          roll=tuple(sorted(roll)))
        ranked = self.ranked(state)
        if ranked:
            return ranked[0][1]
        if self.solution is not None:
            return float(self.solution.final_value(open_tiles))
        return float(self._battle_after()[open_tiles])

    def _battle_after(self) -> npt.NDArray[np.float64]:
        from shutthebox.solver.matchplay import solve_match

        assert self.situation is not None
        assert self.situation.format is not None
        table = solve_match(self.rules, self.situation.format)
        return table.battle_after(self.situation.role)


def aim(rules: Rules, situation: Situation | None = None, objective: ObjectiveLike | None = None,
        *, match_tables: bool = True) -> Aim:
    """What the optimal player aims at in ``situation`` (by default a turn alone), or the
    ``objective`` asked for instead.

    ``match_tables=False`` says the two-player match tables may not be computed (they would
    take too long here): the multi-round formats and the battle are then judged by the
    expected score, as the optimal player plays while its table is missing.

    :raises ObjectiveError: ``objective`` cannot be read.
    :raises FormatError: the situation's format cannot be read or does not fit the rules.
    """
    from shutthebox.solver.objectives import SCORE, parse_objective
    from shutthebox.solver.players import OptimalStrategy
    from shutthebox.solver.solve import solve

    if objective is not None:
        chosen = parse_objective(objective)
        solution = solve(rules, chosen)
        measure = EXPECTED_SCORE if chosen.is_score else f"chance ({chosen})"
        return Aim(rules, measure, str(chosen), solution)
    situation = situation or Situation()
    if match_tables and situation.by_rolls:
        return Aim(rules, CHANCE_TO_WIN, f"{situation.format}:{situation.role}",
                   situation=situation)
    solution = OptimalStrategy(rules, SCORE, match_play=match_tables).solution_for(situation)
    measure = EXPECTED_SCORE if solution.objective.is_score else CHANCE_TO_WIN
    return Aim(rules, measure, str(solution.objective), solution, situation)


# --- hints -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    """One legal choice of a decision: a dice count or the tiles to shut (a mask)."""

    action: int
    value: float
    """In the unit of the aim: an expected score or a chance from 0 to 1."""
    loss: float
    """What it gives up against the best choice, in the same unit (0 for the best)."""
    p_shut: float
    """The chance to shut the box after it, playing on for that."""
    expected_score: float
    """The expected score after it, playing on for that."""


@dataclass(frozen=True)
class Hint:
    """The choices of one decision, best first, in the unit of ``measure``."""

    phase: Phase
    """:attr:`Phase.CHOOSE_DICE` (the choices are dice counts) or :attr:`Phase.SHUT`
    (tile masks)."""
    measure: str
    choices: tuple[Choice, ...]

    @property
    def is_score(self) -> bool:
        return self.measure == EXPECTED_SCORE

    def describe(self, choice: Choice) -> str:
        """A choice in words: ``'2 dice'`` or the tiles, highest first (``'5 3'``)."""
        return describe_action(self.phase, choice.action)


def describe_action(phase: str, action: int) -> str:
    """A dice count or a move in words.

    >>> describe_action("choose-dice", 1), describe_action("shut", 0b10100)
    ('1 die', '5 3')
    """
    if phase == Phase.CHOOSE_DICE:
        return f"{action} di{'e' if action == 1 else 'ce'}"
    return format_move(action)


def rank(state: TurnState, judged_by: Aim) -> Hint:
    """Every legal choice of a decision, best first, with its value under ``judged_by``, its
    loss against the best, and its chance to shut and expected score.

    :raises NoDecisionError: the state is not a decision.
    """
    from shutthebox.solver.objectives import SCORE, SHUT
    from shutthebox.solver.solve import solve

    ranked = judged_by.ranked(state)
    rules, open_tiles = judged_by.rules, state.open_tiles
    shut, score = solve(rules, SHUT), solve(rules, SCORE)
    dice = state.phase is Phase.CHOOSE_DICE

    def after(solution: Solution, action: int) -> float:
        return float(solution.dice_value(open_tiles, action) if dice
                     else solution.after_move(open_tiles, action))

    best = ranked[0][1] if ranked else 0.0
    return Hint(state.phase, judged_by.measure, tuple(
        Choice(action, value, abs(best - value), after(shut, action), after(score, action))
        for action, value in ranked))


def hint(match: Match, *, match_tables: bool = True) -> Hint:
    """The choices of the decision the match waits for, ranked by what the optimal player
    aims at there (see :func:`aim` for ``match_tables``).

    :raises NoDecisionError: the match waits for a roll, or is over.
    """
    pending = match.pending
    if pending.turn is None or not pending.is_decision:
        raise NoDecisionError(f"no decision to hint: the match waits for {pending.kind.value!r}")
    return rank(pending.turn, aim(match.rules, match.situation(), match_tables=match_tables))


@dataclass(frozen=True)
class Chances:
    """The chance to shut the box and the expected score from a position, each played for."""

    p_shut: float
    expected_score: float


def chances(match: Match) -> Chances | None:
    """The chances of the turn under way from where it stands (after a roll: playing that
    roll's best move); ``None`` when no turn is under way."""
    from shutthebox.solver import solve

    turn = match.pending.turn
    if turn is None:
        return None
    shut, score = solve(match.rules, "shut"), solve(match.rules, "score")
    if turn.phase is Phase.SHUT and turn.roll is not None:
        return Chances(float(shut.after_roll(turn.open_tiles, turn.roll)),
                       float(score.after_roll(turn.open_tiles, turn.roll)))
    return Chances(float(shut.value(turn.open_tiles)), float(score.value(turn.open_tiles)))


# --- reviews -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a game: what was played, what was best, and what it cost."""

    index: int
    seat: int
    player: str
    phase: str
    open_tiles: Tiles
    roll: Roll | None
    played: int
    best: int
    played_value: float
    best_value: float
    unit: str = "points"
    """``points`` (an expected score) or ``chance`` (a probability: to win, or of the
    objective)."""

    @property
    def cost(self) -> float:
        return abs(self.best_value - self.played_value)

    @property
    def shown_unit(self) -> str:
        """The unit the cost is shown in: ``points`` or ``percentage points``."""
        return "percentage points" if self.unit == "chance" else "points"

    @property
    def shown_cost(self) -> float:
        """The cost in :attr:`shown_unit`."""
        return self.cost * (100.0 if self.unit == "chance" else 1.0)

    @property
    def costly(self) -> bool:
        """Whether the decision counts as a mistake (its cost reaches :data:`COSTLY`)."""
        return self.shown_cost >= COSTLY[self.shown_unit]

    def describe(self, action: int) -> str:
        return describe_action(self.phase, action)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "player": self.player,
                "phase": self.phase, "open": list(tiles_of(self.open_tiles)),
                "roll": list(self.roll) if self.roll else None,
                "played": self.describe(self.played), "best": self.describe(self.best),
                "played_value": self.played_value, "best_value": self.best_value,
                "cost": self.cost, "unit": self.unit}


@dataclass(frozen=True)
class Review:
    """Every decision of a game against the best, with the totals and verdict per player."""

    decisions: tuple[ReviewedDecision, ...]

    def __iter__(self) -> Iterator[ReviewedDecision]:
        return iter(self.decisions)

    def __len__(self) -> int:
        return len(self.decisions)

    @property
    def shown_unit(self) -> str:
        """``percentage points`` if any decision is judged by a chance, else ``points``."""
        return ("percentage points" if any(d.unit == "chance" for d in self.decisions)
                else "points")

    def total_costs(self) -> dict[str, float]:
        """The summed cost of each player's decisions, in the solver's units."""
        totals: dict[str, float] = {}
        for d in self.decisions:
            totals[d.player] = totals.get(d.player, 0.0) + d.cost
        return totals

    def shown_totals(self) -> dict[str, dict[str, float]]:
        """Each player's summed cost in each unit it is shown in."""
        totals: dict[str, dict[str, float]] = {}
        for d in self.decisions:
            costs = totals.setdefault(d.player, {})
            costs[d.shown_unit] = costs.get(d.shown_unit, 0.0) + d.shown_cost
        return totals

    def mistakes(self) -> dict[str, int]:
        """How many of each player's decisions were costly."""
        counts: dict[str, int] = {}
        for d in self.decisions:
            counts[d.player] = counts.get(d.player, 0) + int(d.costly)
        return counts

    def verdicts(self) -> list[str]:
        """One sentence per player (see :func:`player_verdict`)."""
        totals = self.shown_totals()
        return [player_verdict(player, count, totals[player]) + "."
                for player, count in self.mistakes().items()]

    def verdict(self) -> str:
        """One sentence on the game (see :func:`verdict`)."""
        return verdict(self.mistakes(), self.shown_totals())


def player_verdict(player: str, mistakes: int, costs: Mapping[str, float]) -> str:
    """One player's mistakes and what they cost, each unit's total in its own words.

    >>> player_verdict("Ann", 2, {"points": 3.14})
    'Ann: 2 mistakes cost 3.1 points on average'
    >>> player_verdict("Bo", 0, {})
    'Bo: no mistakes'
    """
    if mistakes == 0:
        return f"{player}: no mistakes"
    words = " and ".join(
        f"{cost:.1f} {unit} " + ("on average" if unit == "points" else "of chance to win")
        for unit, cost in costs.items() if cost)
    return f"{player}: {mistakes} mistake{'s' if mistakes != 1 else ''} cost {words}"


def verdict(mistakes: Mapping[str, int], totals: Mapping[str, Mapping[str, float]]) -> str:
    """One sentence on the game: who made mistakes and what they cost.

    >>> verdict({"Ann": 2}, {"Ann": {"points": 3.14}})
    'Ann: 2 mistakes cost 3.1 points on average.'
    >>> verdict({"Ann": 1, "Bo": 0}, {"Ann": {"percentage points": 4.0}, "Bo": {}})
    'Ann: 1 mistake cost 4.0 percentage points of chance to win; Bo: no mistakes.'
    """
    parts = [player_verdict(player, count, totals.get(player, {}))
             for player, count in mistakes.items()]
    return "; ".join(parts) + "." if parts else "No decisions to review."


def review(log: Mapping[str, Any], objective: ObjectiveLike | None = None, *,
           match_tables: bool = True) -> Review:
    """Every decision of a logged game against the best one.

    With no objective, each decision is judged as the optimal player would play it (its
    :func:`aim`: the chance to win the round, the match or the battle when others play, the
    expected score alone); the cost is then in that unit. ``match_tables`` as for
    :func:`aim`.

    :raises LogError: the log cannot be read or does not replay.
    :raises ObjectiveError: ``objective`` cannot be read.
    """
    reviewed: list[ReviewedDecision] = []
    for decision in replay_decisions(log):
        state = decision.state
        judged_by = aim(state.rules, decision.situation, objective, match_tables=match_tables)
        ranked = judged_by.ranked(state)
        values, best = dict(ranked), ranked[0][0]
        reviewed.append(ReviewedDecision(
            decision.index, decision.seat, decision.player, state.phase.value,
            state.open_tiles, state.roll, decision.action, best,
            values[decision.action], values[best],
            "points" if judged_by.is_score else "chance"))
    return Review(tuple(reviewed))
