"""The solution of a two-player match: its values, read by the players, the coach and the
environments, and its computation by the family that tabulates the format.

A two-player match between turns is a few numbers: the totals, the round, and whether the
first or the second player is to play (the second knows the first's score this round). Each
player maximises their own chance to win the match (a tie is worth half), so a turn is an
ordinary turn whose final value is the mover's chance to win the match from where its score
leads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shutthebox.errors import FormatError
from shutthebox.formats import GameFormat, SolverFamily
from shutthebox.players.base import Role
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.solver.matchplay import battle, rounds, threshold
from shutthebox.solver.matchplay.scores import (
    FloatArray,
    IntArray,
    Progress,
    distinct_scores,
    score_index,
)
from shutthebox.solver.objectives import IndexedTable, Objective, table_objective

Vectors = Callable[[Rules, GameFormat, dict[str, Any], IntArray, IntArray, IntArray, int],
                   FloatArray]
"""A family's chances by score of a turn: ``(rules, format, tables, scores, a, b, round)``."""
Solve = Callable[[Rules, GameFormat, IntArray, Progress | None], tuple[float, dict[str, Any]]]
"""A family's solver: the first player's chance to win and the tables."""

SOLVERS: dict[SolverFamily, Solve] = {
    SolverFamily.ROUNDS: rounds.solve, SolverFamily.THRESHOLD: threshold.solve,
    SolverFamily.BATTLE: battle.solve}
"""How each family tabulates its formats."""
FIRST_VECTORS: dict[SolverFamily, Vectors] = {
    SolverFamily.ROUNDS: rounds.first_vectors, SolverFamily.THRESHOLD: threshold.first_vectors}
SECOND_VECTORS: dict[SolverFamily, Vectors] = {
    SolverFamily.ROUNDS: rounds.second_vectors, SolverFamily.THRESHOLD: threshold.second_vectors}


@dataclass(frozen=True)
class MatchPosition:
    """Where a two-player match stands before a turn.

    ``totals`` are the first player's and the second's totals (the first's includes this
    round's score once they have played), ``mover`` is 0 when the first player is to play and
    1 for the second, ``round`` counts the rounds finished before this one (from 0).
    """

    totals: tuple[int, int] = (0, 0)
    mover: int = 0
    round: int = 0


@dataclass
class MatchSolution:
    """The exact values of a two-player match under optimal play by both.

    :attr:`win` is each seat's chance to win from the start (a tie shared); the first player
    to play is seat 0 unless the rules roll off for it (then each seat is first half the time).
    :meth:`turn_chances` gives the mover's chance to win for each score of the coming turn,
    and :meth:`turn_objective` the objective that plays that turn exactly.
    """

    rules: Rules
    format: GameFormat
    first_win: float
    """The chance that the player who plays first wins the match."""
    scores: IntArray
    """The distinct scores a turn can end with, in increasing order."""
    tables: dict[str, Any] = field(repr=False)
    players: int = 2

    @property
    def win(self) -> tuple[float, float]:
        """Each seat's chance to win the match from the start."""
        if self.rules.first_player is not FirstPlayer.SEAT:
            return 0.5, 0.5
        return self.first_win, 1.0 - self.first_win

    # --- turn formats ----------------------------------------------------------------------

    def first_vectors(self, a: IntArray, b: IntArray, round_: int) -> FloatArray:
        """The first player's chance (rows: positions ``(a, b)`` of the totals) for each
        score of its turn in round ``round_`` (from 0)."""
        return FIRST_VECTORS[self._turn_family()](self.rules, self.format, self.tables,
                                                  self.scores, a, b, round_)

    def second_vectors(self, a: IntArray, b: IntArray, round_: int) -> FloatArray:
        """The first player's chance (rows: positions with the second to play) for each
        score of the second player's turn."""
        return SECOND_VECTORS[self._turn_family()](self.rules, self.format, self.tables,
                                                   self.scores, a, b, round_)

    def _turn_family(self) -> SolverFamily:
        family = self.format.family
        if family is None or family is SolverFamily.BATTLE:
            raise FormatError("a battle has no scores: use battle_values")
        return family

    def turn_chances(self, position: MatchPosition) -> FloatArray:
        """The mover's chance to win the match for each score of :attr:`scores` (the turn
        about to be played from ``position``).

        :raises FormatError: the match is a battle, which keeps no score.
        """
        a, b = position.totals
        if position.mover == 0:
            vector = self.first_vectors(np.array([a]), np.array([b]), position.round)[0]
        else:
            vector = 1.0 - self.second_vectors(np.array([a]), np.array([b]), position.round)[0]
        return np.clip(np.asarray(vector, dtype=np.float64), 0.0, 1.0)   # rounding aside

    def position_value(self, position: MatchPosition) -> float:
        """The mover's chance to win the match before their turn, under optimal play.

        :raises FormatError: the match is a battle, which keeps no score.
        """
        from shutthebox.solver.match_kernels import start_values

        chances = self.turn_chances(position)
        value, _ = start_values(self.rules, chances[score_index(self.rules)][None, :])
        return float(value[0])

    def turn_objective(self, position: MatchPosition) -> Objective:
        """The objective (of the final tiles) whose optimal play is the mover's exact match
        play for this turn: its value is the chance to win the match.

        :raises FormatError: the match is a battle, which keeps no score.
        """
        chances = self.turn_chances(position)
        digest = hashlib.sha1(chances.tobytes()).hexdigest()[:16]
        return table_objective(f"match:{self.format}",
                               IndexedTable(chances, score_index(self.rules)),
                               ("match", digest))

    # --- battle ----------------------------------------------------------------------------

    def battle_values(self, role: str) -> FloatArray:
        """The mover's chance to win a battle for each mask of the tiles it works on (the
        open tiles for the knocker, the shut ones for the stander), before its roll (or
        turn)."""
        table = self.tables[Role.KNOCK if role == Role.KNOCK else Role.STAND]
        return np.asarray(table, dtype=np.float64)

    def battle_after(self, role: str) -> FloatArray:
        """The mover's chance to win once its roll (or turn) leaves ``mask`` of its tiles,
        for every mask (the other player moves next unless the mask is empty)."""
        other = self.battle_values(Role.STAND if role == Role.KNOCK else Role.KNOCK)
        full = (1 << self.rules.tiles) - 1
        after: FloatArray = 1.0 - other[full & ~np.arange(full + 1)]
        after[0] = 1.0
        return after


def compute(rules: Rules, fmt: GameFormat, progress: Progress | None = None) -> MatchSolution:
    """Solve a match from nothing (no cache) by the family that tabulates its format;
    ``rules.instant_win`` is read as it is (:func:`~shutthebox.solver.matchplay.solve_match`
    settles it first).

    :raises FormatError: the format has no match table (a game alone).
    :raises MatchTooLargeError: the table would be too large to compute.
    """
    family = fmt.family
    if family is None:
        raise FormatError(f"{fmt} has no match table: it is a game alone")
    scores = distinct_scores(rules)
    first_win, tables = SOLVERS[family](rules, fmt, scores, progress)
    return MatchSolution(rules, fmt, first_win, scores, tables)
