"""Reviews: every decision of a logged game against the best, what it cost, and one verdict
per player, with one threshold (:data:`COSTLY`) for a mistake."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shutthebox.coach.aims import Aim, aim
from shutthebox.coach.hints import describe_action
from shutthebox.dice import Roll
from shutthebox.language import N_, _
from shutthebox.match import replay_decisions
from shutthebox.names import about
from shutthebox.phrases import join_words
from shutthebox.tiles import Tiles, tiles_of
from shutthebox.turn import TurnState

if TYPE_CHECKING:
    from shutthebox.solver.objectives import ObjectiveLike

COSTLY = {"points": 0.5, "percentage points": 1.0}
"""From which cost a decision counts as a mistake, in each unit a cost is shown in (points of
expected score, percentage points of a chance)."""


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

    def numbers(self) -> dict[int, int]:
        """Each decision's number by its log index: 1, 2, 3 ... in the order they were
        played, the one numbering of the review's table, its chart and its JSON."""
        return {d.index: number for number, d in enumerate(self.decisions, 1)}

    def to_dicts(self) -> list[dict[str, Any]]:
        """Every decision as JSON-ready data, with its ``number``."""
        return [{"number": number, **d.to_dict()}
                for number, d in enumerate(self.decisions, 1)]

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
        return [_("{verdicts}.").format(verdicts=player_verdict(player, count, totals[player]))
                for player, count in self.mistakes().items()]

    def verdict(self) -> str:
        """One sentence on the game (see :func:`verdict`)."""
        return verdict(self.mistakes(), self.shown_totals())


def player_verdict(player: str, mistakes: int, costs: Mapping[str, float]) -> str:
    """Whether a player made mistakes and, if so, what their decisions cost in total, each
    unit's total in its own words (how many errors of each size is the analysis's to say:
    each error is named once). The reader's seat (``You``) is spoken to.

    >>> player_verdict("Ann", 2, {"points": 3.14})
    'Ann: the decisions cost 3.1 points in total'
    >>> player_verdict("Bo", 0, {}), player_verdict("You", 1, {"percentage points": 4.0})
    ('Bo: no mistakes', 'Your decisions cost 4.0 percentage points of chance to win in total')
    """
    if mistakes == 0:
        return about(player, N_("You made no mistakes"), N_("{name}: no mistakes"))
    words = join_words([(_("{cost} points") if unit == "points" else
                         _("{cost} percentage points of chance to win")).format(
                             cost=f"{cost:.1f}") for unit, cost in costs.items() if cost])
    return about(player, N_("Your decisions cost {costs} in total"),
                 N_("{name}: the decisions cost {costs} in total"), costs=words)


def verdict(mistakes: Mapping[str, int], totals: Mapping[str, Mapping[str, float]]) -> str:
    """One sentence on the game: who made mistakes and what they cost.

    >>> verdict({"Ann": 2}, {"Ann": {"points": 3.14}})
    'Ann: the decisions cost 3.1 points in total.'
    >>> verdict({"Ann": 1, "Bo": 0}, {"Ann": {"percentage points": 4.0}, "Bo": {}})
    'Ann: the decisions cost 4.0 percentage points of chance to win in total; Bo: no mistakes.'
    """
    parts = [player_verdict(player, count, totals.get(player, {}))
             for player, count in mistakes.items()]
    return _("{verdicts}.").format(verdicts=_("; ").join(parts)) if parts else \
        _("No decisions to review.")


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
        reviewed.append(judge(decision.index, decision.seat, decision.player, state,
                              decision.action, judged_by, judged_by.ranked(state)))
    return Review(tuple(reviewed))


def judge(index: int, seat: int, player: str, state: TurnState, action: int, judged_by: Aim,
          ranked: list[tuple[int, float]]) -> ReviewedDecision:
    """One decision against the best of ``ranked`` (the aim's ranking of the position)."""
    values, best = dict(ranked), ranked[0][0]
    return ReviewedDecision(index, seat, player, state.phase.value, state.open_tiles,
                            state.roll, action, best, values[action], values[best],
                            "points" if judged_by.is_score else "chance")
