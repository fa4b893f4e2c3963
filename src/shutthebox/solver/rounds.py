"""The deciding single round, exact for any number of players.

In a single round of ``N`` players, the player at seat ``i`` knows the best score posted
before them and how many players hold it. Each player maximises their own share of the win
(a ``k``-way tie is worth ``1/k``; a shut box wins at once when the rules say so), knowing that
every later player does the same. Backward induction over (seat, best score, holders): the
share of each current holder once seat ``i`` has played follows from the distribution of seat
``i``'s final score under its optimal play, and seat ``i``'s objective from the holders' shares
at seat ``i + 1``.

>>> from shutthebox.rules import Rules
>>> [round(w, 10) for w in solve_round(Rules(), 2).win]
[0.5005353268, 0.4994646732]
>>> round(sum(solve_round(Rules(tiles=5), 4).win), 12)
1.0
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from shutthebox.errors import FormatError
from shutthebox.rules import Rules
from shutthebox.solver.objectives import IndexedTable, Objective, score_array, table_objective
from shutthebox.solver.round_sweep import sweep as numpy_sweep
from shutthebox.solver.round_tables import load_tables, save_tables
from shutthebox.solver.solve import forward, solve_batch

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@cache
def _ranks(rules: Rules) -> tuple[IntArray, IntArray]:
    """The distinct scores best first, and each mask's rank among them."""
    distinct, place = np.unique(score_array(rules), return_inverse=True)
    if rules.lower_is_better:
        return distinct, place.astype(np.int64)
    return distinct[::-1].copy(), (len(distinct) - 1 - place).astype(np.int64)


COMPILED_WORK = 1 << 20
"""Beyond this many (target, mask) pairs (digit scoring on 11 and 12 tiles) the compiled
kernel tabulates the odds: numba's start-up then costs less than numpy's calls."""

SWEEP_WORK = 1 << 20
"""Beyond this many (best rank, holders, mask) triples to fill, the holders' tables may be swept
by the compiled kernel (:func:`~shutthebox.solver.round_kernels.sweep`, where
:data:`NUMPY_SWEEP_RANKS` allows); below it numpy's sweep
(:func:`~shutthebox.solver.round_sweep.sweep`) costs less than numba's start-up."""

NUMPY_SWEEP_RANKS = 512
"""Up to this many distinct scores (every rule set with sum or covered scoring, digits on 9
tiles) a process that has not started numba sweeps with numpy whatever the work: with four
players about 0.35 s of one core on a 12-tile preset, against numba's start-up (about 0.5 s of
one core, 0.7 s where SciPy is installed: numba imports it as it loads its first kernel, even
from its cache on disk) and the compiled sweep (0.1 s) after it. Beyond (digit scoring on 10 to
12 tiles) numpy's sweep costs more than both: every position is solved for every best score
it can meet (about 3 s of one core for one holder count on 12 tiles)."""


def compiled_sweep(work: int, ranks: int) -> bool:
    """Whether the compiled sweep pays for ``work`` (best rank, holders, mask) triples of a
    rule set with ``ranks`` distinct scores: beyond :data:`SWEEP_WORK`, and beyond
    :data:`NUMPY_SWEEP_RANKS` unless numba has started in this process already."""
    return work > SWEEP_WORK and (ranks > NUMPY_SWEEP_RANKS or "numba" in sys.modules)


def ended_under_play(rules: Rules, finals: FloatArray, compiled: bool | None = None) -> FloatArray:
    """``ended[mask, k]``: the chance that a turn ends with ``mask`` open under the optimal play
    of each column of ``finals`` (a value of every final mask), with the same tie rules as
    :class:`~shutthebox.solver.solve.Solution`; by the compiled kernel when ``compiled`` says
    so, or (``None``) when the work is larger than :data:`COMPILED_WORK`."""
    if compiled is None:
        compiled = finals.size > COMPILED_WORK
    if compiled:
        from shutthebox.solver.kernels import ended_many  # numba: only where it pays

        return ended_many(rules, finals)
    batch = solve_batch(rules, finals)
    return forward(rules, batch.dice_table, batch.group_moves)


@dataclass
class RoundSolution:
    """The exact values of a single round of ``players`` players.

    ``holders[i][best, h]`` is the share of the win of each of the ``h`` players holding the
    best score (rank ``best``, 0 the best possible) when seat ``i`` is about to play;
    :meth:`objective` is what the player at a seat maximises.
    """

    rules: Rules
    players: int
    scores: IntArray
    """The distinct scores, best first (their rank is their index)."""
    rank: IntArray
    """Each final mask's rank."""
    instant: bool
    holders: dict[int, FloatArray] = field(default_factory=dict)
    disk: bool = False
    """Whether the tables are read from and kept in the data folder
    (:mod:`~shutthebox.solver.round_tables`)."""
    _known: dict[int, int] = field(default_factory=dict, repr=False)
    """How many of the best ranks each seat's table of ``holders`` holds."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _read: bool = field(default=False, repr=False)

    def finals(self, seat: int, best: int = 0, holders: int = 0) -> FloatArray:
        """The mover's share of the win for each score rank it can end with, at ``seat``,
        with the best score so far of rank ``best`` held by ``holders`` players (ignored for
        seat 0). A shut box has rank 0 (it is the best score under every scoring)."""
        later = self._holders(seat + 1, None if seat == 0 else best + 1)
        if seat == 0:
            values = later[:, 1]
            values = np.where(np.arange(len(values)) == 0, 1.0, values) if self.instant else values
        else:
            values = self._seat_finals(seat, best, holders, later)
        return np.asarray(values, dtype=np.float64)

    def _holders(self, seat: int, ranks: int | None = None) -> FloatArray:
        """The holders' shares when ``seat`` is about to play, known for the best ranks
        ``0 .. ranks - 1`` at least (every rank by default)."""
        needed = len(self.scores) if ranks is None else min(ranks, len(self.scores))
        with self._lock:
            if self.disk and not self._read:
                self._read = True
                self._read_tables()
            if self._known.get(seat, 0) < needed:
                before = dict(self._known)
                self._solve_down_to(seat, needed)
                if self.disk and any(self._known.get(i) != before.get(i)
                                     for i in range(1, self.players)):
                    save_tables(self.rules, self.players, self.holders, self._known)
            return self.holders[seat]

    def _read_tables(self) -> None:
        """Take the tables kept on disk where they hold more than memory does."""
        tables, known = load_tables(self.rules, self.players, len(self.scores))
        for seat, filled in known.items():
            if filled > self._known.get(seat, 0):
                self.holders[seat], self._known[seat] = tables[seat], filled

    def _solve_down_to(self, seat: int, ranks: int) -> None:
        """Fill the holders' tables of the seats from the last down to ``seat`` for the best
        ranks ``0 .. ranks - 1``: a seat's row of rank ``b`` reads only the next seat's rows of
        ranks ``b`` and better, so a good score posted needs only a few rows."""
        m, n = len(self.scores), self.players
        if n not in self.holders:
            last = np.zeros((m, n + 1))
            last[:, 1:] = 1.0 / np.arange(1, n + 1)
            self.holders[n] = last
            self._known[n] = m
        if self._known.get(seat, 0) < m:   # growing by half at least: a few sweeps in all
            ranks = min(m, max(ranks, self._known.get(seat, 0) * 3 // 2))
        seats = [i for i in range(n - 1, seat - 1, -1) if self._known.get(i, 0) < ranks]
        compiled = compiled_sweep(sum(ranks * i for i in seats) << self.rules.tiles, m)
        for i in seats:
            self.holders[i] = np.zeros((m, n + 1)) if i == 0 else \
                self._seat_table(i, self.holders[i + 1], ranks, compiled)
            self._known[i] = m if i == 0 else ranks

    def _seat_table(self, seat: int, later: FloatArray, ranks: int,
                    compiled: bool) -> FloatArray:
        """The holders' shares once ``seat`` has played, for the best ranks below ``ranks``:
        from the chances that the seat's optimal play ties the best score or ends worse
        (by the compiled sweep, or by numpy's)."""
        m, n = len(self.scores), self.players
        holders = np.arange(1, seat + 1)
        tie_shares = later[:ranks, np.minimum(holders + 1, n)]
        below = later[:, 1].copy()
        at = tie_shares.copy()
        if self.instant:   # a shut box wins at once
            below[0] = 1.0
            at[0] = 1.0
        swept = None if compiled else numpy_sweep(self.rules, self.rank, below, at)
        if swept is None:
            from shutthebox.solver.round_kernels import sweep  # numba: only where it pays

            swept = sweep(self.rules, self.rank, below, at)
        tie, worse = swept
        table = np.zeros((m, n + 1))
        table[:ranks, 1:seat + 1] = later[:ranks, holders] * worse + tie_shares * tie
        return table

    def _seat_finals(self, seat: int, best: int, holders: int, later: FloatArray) -> FloatArray:
        ranks = np.arange(len(self.scores))
        values = np.where(ranks < best, later[ranks, 1],
                          np.where(ranks == best, later[best, min(holders + 1, self.players)],
                                   0.0))
        return np.where(ranks == 0, 1.0, values) if self.instant else values

    def objective(self, seat: int, best_score: int | None = None, holders: int = 0) -> Objective:
        """What the player at ``seat`` maximises, the best score so far being ``best_score``
        held by ``holders`` players: the share of the win."""
        best = 0 if best_score is None else self._rank_of(best_score)
        key = ("round", self.players, seat, best, holders if seat else 0)
        return table_objective(f"win:seat{seat}of{self.players}",
                               IndexedTable(self.finals(seat, best, holders), self.rank), key)

    def _rank_of(self, score: int) -> int:
        where = np.flatnonzero(self.scores == score)
        if len(where):
            return int(where[0])
        return int(np.searchsorted(-self.scores if not self.rules.lower_is_better
                                   else self.scores, -score if not self.rules.lower_is_better
                                   else score))

    @property
    def win(self) -> tuple[float, ...]:
        """Each seat's share of the win from the start of the round (seat order = play
        order): the distribution of (best score, holders) met by each seat, carried forward
        through each seat's optimal play."""
        m, n = len(self.scores), self.players
        meets = {(0, 0): 1.0}
        shares = []
        for seat in range(n):
            situations = list(meets)
            vectors = np.stack([self.finals(seat, b, h) for b, h in situations])
            ended = ended_under_play(self.rules, vectors[:, self.rank].T)
            following: dict[tuple[int, int], float] = {}
            total = 0.0
            for k, (b, h) in enumerate(situations):
                chance = meets[(b, h)]
                p = np.bincount(self.rank, weights=ended[:, k], minlength=m)
                total += chance * float(p @ vectors[k])
                for rank in np.flatnonzero(p).tolist():
                    if self.instant and rank == 0:
                        continue   # a shut box ends the round
                    step = ((rank, 1) if seat == 0 or rank < b else (b, h + 1) if rank == b
                            else (b, h))
                    following[step] = following.get(step, 0.0) + chance * float(p[rank])
            shares.append(total)
            meets = following
        return tuple(shares)


ROUNDS_IN_MEMORY = 32
"""Single rounds (rule set and number of players) a process keeps solved in memory, the least
recently used going first (one let go is read from the data folder again, or solved again):
a server's solver worker is asked about any rule set a client names."""

_rounds: LRUCache[tuple[Rules, int], RoundSolution] = LRUCache(ROUNDS_IN_MEMORY)
_rounds_lock = threading.Lock()


def solve_round(rules: Rules, players: int, disk: bool = True) -> RoundSolution:
    """The exact single round of ``players`` players (1 to 12), each playing to win.

    ``rules.instant_win`` left unset means a shut box wins at once (the single round's
    default). ``disk`` reads the round's tables from the data folder and keeps them there
    (:mod:`~shutthebox.solver.round_tables`), so a later process need not solve them again.

    :raises FormatError: ``players`` is not a number from 1 to 12."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 12:
        raise FormatError(f"a round takes 1 to 12 players, not {players!r}")
    instant = rules.shut_box_wins(multi_round=False)
    key = (rules.replace(instant_win=instant), players)
    with _rounds_lock:
        found = _rounds.get(key)
        if found is None:
            scores, rank = _ranks(key[0])
            found = _rounds[key] = RoundSolution(key[0], players, scores, rank, instant,
                                                 disk=disk)
        return found
