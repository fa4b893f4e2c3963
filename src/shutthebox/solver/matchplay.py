"""Exact match play for two players: every format, every rule set.

A two-player match between turns is a few numbers: the totals, the round, and whether the
first or the second player is to play (the second knows the first's score this round). Each
player maximises their own chance to win the match (a tie is worth half), so a turn is an
ordinary turn whose final value is the mover's chance to win the match from where its score
leads. :func:`solve_match` tabulates those chances backwards:

- ``single`` and ``rounds:R``: round by round from the last, by the difference of the totals
  (the only thing the winner depends on);
- ``elimination:L``, ``loser-at:L`` (the same game for two players: the round in which a total
  reaches ``L`` ends it, the lower total wins) and ``race:T`` (the higher total wins): by
  totals ``(a, b)`` below the limit, in decreasing order of ``a + b``. A round in which both
  score 0 (a shut box when it does not win at once, or nothing shut with covered scoring)
  returns to the same totals: that position's value is the fixed point of its round, found by
  Newton's method on the chance of the loop (exact after a step or two: the round's value is
  piecewise linear in it), to 1e-13;
- the battle (``battle:rolls`` one roll at a time, ``battle:turns`` a whole turn at a time) can
  return to any board it has left: it is solved as the stochastic game it is, by value
  iteration on the knocker's and the stander's tables until a sweep changes nothing by more
  than 1e-15.

Tables are cached in memory and on disk in the data folder (``match/`` in
:func:`~shutthebox.paths.data_dir`), so a rule set and format is solved once per machine.

>>> from shutthebox.rules import Rules
>>> solution = solve_match(Rules(), "single")
>>> [round(w, 10) for w in solution.win]
[0.5005353268, 0.4994646732]
>>> solution = solve_match(Rules(tiles=4), "rounds:2")
>>> round(sum(solution.win), 12)
1.0
>>> position = MatchPosition(totals=(3, 0), mover=1)     # the first scored 3 in round 1
>>> chances = solution.turn_chances(position)            # the second's chance by score
>>> bool(chances[0] > chances[3] > chances[4])   # scores 0, 3, 4: lower is better
True
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.errors import FormatError, ShutTheBoxError
from shutthebox.formats import BattleReading, GameFormat, SolverFamily
from shutthebox.players.base import Role
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.solver.objectives import IndexedTable, Objective, table_objective
from shutthebox.tiles import Tiles

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Progress = Callable[[float], None]
"""Called with the fraction of the work done (0 to 1)."""

LOOP_TOLERANCE = 1e-13
"""A round's fixed point is accepted when it moves the value by less than this."""
BATTLE_TOLERANCE = 1e-15
"""Value iteration of a battle stops when a sweep changes no value by more than this."""
MAX_POSITIONS = 2_000_000
"""Beyond this many match positions a table is refused (digit scoring over many rounds)."""
MAX_SUMS = 32 * MAX_POSITIONS
"""The most sums of totals and scores formed at once (8 bytes each) while the positions of
a round are counted: beyond it the positions could not be fewer than :data:`MAX_POSITIONS`
without an array of gigabytes first."""
TABLE_VERSION = 1
"""Bumped when the tables' meaning changes, so old files on disk are not read."""


class MatchTooLargeError(ShutTheBoxError):
    """A match whose exact table would be too large to compute."""


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


def _shares(better: npt.NDArray[np.bool_], tie: npt.NDArray[np.bool_]) -> FloatArray:
    return better.astype(np.float64) + 0.5 * tie


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

    def turn_chances(self, position: MatchPosition) -> FloatArray:
        """The mover's chance to win the match for each score of :attr:`scores` (the turn
        about to be played from ``position``)."""
        if self.format.is_battle:
            raise FormatError("a battle has no scores: use battle_values")
        a, b = position.totals
        if position.mover == 0:
            vector = _first_vectors(self, np.array([a]), np.array([b]), position.round)[0]
        else:
            vector = 1.0 - _second_vectors(self, np.array([a]), np.array([b]), position.round)[0]
        return np.clip(np.asarray(vector, dtype=np.float64), 0.0, 1.0)   # rounding aside

    def position_value(self, position: MatchPosition) -> float:
        """The mover's chance to win the match before their turn, under optimal play."""
        from shutthebox.solver.match_kernels import start_values

        chances = self.turn_chances(position)
        value, _ = start_values(self.rules, chances[_score_index(self.rules)][None, :])
        return float(value[0])

    def turn_objective(self, position: MatchPosition) -> Objective:
        """The objective (of the final tiles) whose optimal play is the mover's exact match
        play for this turn: its value is the chance to win the match."""
        chances = self.turn_chances(position)
        digest = hashlib.sha1(chances.tobytes()).hexdigest()[:16]
        return table_objective(f"match:{self.format}",
                               IndexedTable(chances, _score_index(self.rules)),
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


# --- the scores and the final tiles ----------------------------------------------------------

@cache
def _score_index(rules: Rules) -> IntArray:
    from shutthebox.solver.objectives import score_array

    scores = score_array(rules)
    return np.searchsorted(np.unique(scores), scores)


def _distinct_scores(rules: Rules) -> IntArray:
    from shutthebox.solver.objectives import score_array

    return np.unique(score_array(rules))


def _better(rules: Rules, x: Any, y: Any) -> Any:
    return x < y if rules.lower_is_better else x > y


def _compare(rules: Rules, mine: Any, other: Any) -> FloatArray:
    """The first player's share when totals ``mine`` and ``other`` are final."""
    return _shares(_better(rules, mine, other), mine == other)


def _finals(rules: Rules, vectors: FloatArray) -> FloatArray:
    """Per-score values to per-mask final values."""
    return np.ascontiguousarray(vectors[:, _score_index(rules)])


def _loop_mask(rules: Rules, fmt: GameFormat) -> FloatArray | None:
    """1 on the masks whose score (0) leaves the totals unchanged, unless a shut box wins at
    once there; ``None`` when no turn can score 0 without ending the match."""
    from shutthebox.solver.match_kernels import start_values
    from shutthebox.solver.objectives import score_array

    if fmt.shut_box_wins(rules) and rules.best_score == 0:
        return None
    loop = (score_array(rules) == 0).astype(np.float64)
    most, _ = start_values(rules, loop[None, :])   # the best chance any play has of looping
    return loop if most[0] > 0 else None


# --- first and second players' vectors, by format --------------------------------------------

def _first_vectors(solution: MatchSolution, a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions) for each score of its turn."""
    rules, fmt, scores, tables = solution.rules, solution.format, solution.scores, solution.tables
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    if fmt.family is SolverFamily.ROUNDS:
        d_second, v_second = tables[f"second_d{round_}"], tables[f"second_v{round_}"]
        after = (a - b)[:, None] + scores[None, :]
        vectors = v_second[np.searchsorted(d_second, after)]
    else:
        vectors = _threshold_first(rules, fmt.threshold, tables, a, b, scores)
    return np.where(instant[None, :], 1.0, vectors)


def _second_vectors(solution: MatchSolution, a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions with the second to play) for each score of
    the second player's turn."""
    rules, fmt, scores, tables = solution.rules, solution.format, solution.scores, solution.tables
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    if fmt.family is SolverFamily.ROUNDS:
        rounds = fmt.rounds or 1
        after = (a - b)[:, None] - scores[None, :]
        if round_ + 1 >= rounds:
            vectors = _compare(rules, after, 0)
        else:
            d_first, v_first = tables[f"first_d{round_ + 1}"], tables[f"first_v{round_ + 1}"]
            vectors = v_first[np.searchsorted(d_first, after)]
    else:
        vectors = _threshold_second(rules, fmt.threshold, tables["first"], a, b, scores)
    return np.where(instant[None, :], 0.0, vectors)


def _threshold_second(rules: Rules, limit: int, first: FloatArray, a: IntArray, b: IntArray,
                      scores: IntArray) -> FloatArray:
    """After the second player's turn: the match ends when a total reaches the limit (the
    better total wins), else the next round starts from the new totals."""
    a2 = np.broadcast_to(a[:, None], (len(a), len(scores)))
    b2 = b[:, None] + scores[None, :]
    ended = (a2 >= limit) | (b2 >= limit)
    inside = np.where(ended, 0, np.minimum(a2, limit - 1) * limit + np.minimum(b2, limit - 1))
    return np.where(ended, _compare(rules, a2, b2), first.ravel()[inside])


def _threshold_first(rules: Rules, limit: int, tables: dict[str, Any], a: IntArray,
                     b: IntArray, scores: IntArray) -> FloatArray:
    a2 = a[:, None] + scores[None, :]
    b2 = np.broadcast_to(b[:, None], a2.shape)
    over = a2 >= limit
    inside = np.where(over, 0, np.minimum(a2, limit - 1) * limit + b2)
    classes = _difference_class(scores, np.where(over, a2 - b2, 0))
    vectors: FloatArray = np.where(over, tables["second_over"][classes],
                                   tables["second"].ravel()[inside])
    return vectors


def _difference_class(scores: IntArray, difference: Any) -> Any:
    """Differences that no score tells apart share a class: ``2 i`` strictly between
    ``scores[i - 1]`` and ``scores[i]``, ``2 i + 1`` equal to ``scores[i]``."""
    i = np.searchsorted(scores, difference)
    equal = (i < len(scores)) & (scores[np.minimum(i, len(scores) - 1)] == difference)
    return 2 * i + equal


def _over_vectors(rules: Rules, fmt: GameFormat, scores: IntArray) -> FloatArray:
    """The first player's chance for each score of the second's turn, for each difference
    class of ``a - b`` once the first's total ``a`` has reached the limit (``b`` has not)."""
    m = len(scores)
    classes = np.arange(2 * m + 1)
    i, equal = classes // 2, (classes % 2 == 1)
    j = np.arange(m)[None, :]
    # the second's total b + t against a: t above the difference means b + t > a
    above = j > i[:, None] - (~equal)[:, None]
    tie = equal[:, None] & (j == i[:, None])
    below = ~above & ~tie
    first_better = below if not rules.lower_is_better else above
    vectors = _shares(first_better, tie)
    if fmt.shut_box_wins(rules):
        vectors[:, scores == rules.best_score] = 0.0
    return vectors


# --- solving ---------------------------------------------------------------------------------

def _check_sums(rules: Rules, fmt: GameFormat, sums: int, round_: int) -> None:
    if sums > MAX_SUMS:
        raise MatchTooLargeError(
            f"{fmt} with {rules.scoring.value} scoring is too large to solve exactly: its "
            f"round {round_} has up to {sums:,} positions")


def _solve_rounds(rules: Rules, fmt: GameFormat, scores: IntArray,
                  progress: Progress | None) -> tuple[float, dict[str, Any]]:
    from shutthebox.solver.match_kernels import start_values

    rounds = fmt.rounds or 1
    starts = [np.zeros(1, dtype=np.int64)]
    steps = np.unique(scores[:, None] - scores[None, :])
    for _ in range(rounds - 1):
        _check_sums(rules, fmt, len(starts[-1]) * len(steps), len(starts) + 1)
        starts.append(np.unique(starts[-1][:, None] + steps[None, :]))
        if len(starts[-1]) > MAX_POSITIONS:
            raise MatchTooLargeError(
                f"{fmt} with {rules.scoring.value} scoring has more than {MAX_POSITIONS:,} "
                f"positions by round {len(starts)}: too many to solve exactly")
    tables: dict[str, Any] = {}
    solution = MatchSolution(rules, fmt, 0.0, scores, tables)
    for r in range(rounds - 1, -1, -1):
        _check_sums(rules, fmt, len(starts[r]) * len(scores), r + 1)
        second_d = np.unique(starts[r][:, None] + scores[None, :])
        vectors = _second_vectors(solution, second_d, np.zeros_like(second_d), r)
        value, _ = start_values(rules, _finals(rules, 1.0 - vectors))
        tables[f"second_d{r}"], tables[f"second_v{r}"] = second_d, 1.0 - value
        first_d = starts[r]
        vectors = _first_vectors(solution, first_d, np.zeros_like(first_d), r)
        value, _ = start_values(rules, _finals(rules, vectors))
        tables[f"first_d{r}"], tables[f"first_v{r}"] = first_d, value
        if progress is not None:
            progress((rounds - r) / rounds)
    return float(tables["first_v0"][0]), tables


def _solve_threshold(rules: Rules, fmt: GameFormat, scores: IntArray,
                     progress: Progress | None) -> tuple[float, dict[str, Any]]:
    from shutthebox.solver.match_kernels import start_values

    limit = fmt.threshold
    instant = fmt.shut_box_wins(rules)
    over = _over_vectors(rules, fmt, scores)
    value, _ = start_values(rules, _finals(rules, 1.0 - over))
    first = np.zeros((limit, limit))
    second = np.zeros((limit, limit))
    tables: dict[str, Any] = {"first": first, "second": second, "second_over": 1.0 - value}
    loop = _loop_mask(rules, fmt)
    levels = 2 * limit - 1
    for n in range(levels - 1, -1, -1):
        a = np.arange(max(0, n - limit + 1), min(n, limit - 1) + 1)
        b = n - a
        guess = first[a, np.minimum(b + 1, limit - 1)] if n < levels - 1 else np.full(len(a), .5)
        first[a, b] = guess
        settled = np.zeros(len(a), dtype=bool)
        for _ in range(100):   # only the positions whose fixed point has not settled
            ai, bi = a[~settled], b[~settled]
            x = first[ai, bi]
            vectors = _threshold_second(rules, limit, first, ai, bi, scores)
            if instant:
                vectors[:, scores == rules.best_score] = 0.0
            value_b, loop_b = start_values(rules, _finals(rules, 1.0 - vectors), loop)
            second[ai, bi] = 1.0 - value_b
            vectors = _threshold_first(rules, limit, tables, ai, bi, scores)
            if instant:
                vectors[:, scores == rules.best_score] = 1.0
            value_a, loop_a = start_values(rules, _finals(rules, vectors), loop)
            step = value_a - x
            if loop is None:
                first[ai, bi] = value_a
                break
            done = np.abs(step) < LOOP_TOLERANCE
            first[ai, bi] = np.where(done, value_a, x + step / (1.0 - loop_a * loop_b))
            settled[np.flatnonzero(~settled)[done]] = True
            if settled.all():
                break
        else:  # pragma: no cover (a contraction converges long before)
            raise ShutTheBoxError(f"the round's fixed point did not converge at level {n}")
        if progress is not None:
            progress(1.0 - n / levels)
    return float(first[0, 0]), tables


def _solve_battle(rules: Rules, fmt: GameFormat,
                  progress: Progress | None) -> tuple[float, dict[str, Any]]:
    from shutthebox.solver.match_kernels import roll_values, turn_values

    size = 1 << rules.tiles
    full = size - 1
    complement = full & ~np.arange(size)
    knock = np.full(size, 0.5)
    stand = np.full(size, 0.5)

    def sweep(other: FloatArray) -> FloatArray:
        after = 1.0 - other[complement]
        after[0] = 1.0
        if fmt.reading is BattleReading.TURNS:
            return turn_values(rules, after)
        return roll_values(rules, after, after)

    for sweeps in range(1, 1_000_001):
        new_knock = sweep(stand)
        new_stand = sweep(new_knock)
        change = max(np.max(np.abs(new_knock - knock)), np.max(np.abs(new_stand - stand)))
        knock, stand = new_knock, new_stand
        if change <= BATTLE_TOLERANCE:
            break
        if progress is not None and sweeps % 64 == 0:
            progress(min(0.99, 1.0 / max(1.0, -np.log10(change / BATTLE_TOLERANCE))))
    knock[0] = stand[0] = 1.0
    if progress is not None:
        progress(1.0)
    return float(knock[full]), {"knock": knock, "stand": stand, "sweeps": sweeps}


def _compute(rules: Rules, fmt: GameFormat, progress: Progress | None) -> MatchSolution:
    scores = _distinct_scores(rules)
    if fmt.family is SolverFamily.BATTLE:
        first_win, tables = _solve_battle(rules, fmt, progress)
    elif fmt.family is SolverFamily.ROUNDS:
        first_win, tables = _solve_rounds(rules, fmt, scores, progress)
    else:
        first_win, tables = _solve_threshold(rules, fmt, scores, progress)
    return MatchSolution(rules, fmt, first_win, scores, tables)


# --- the cache: memory, then disk ------------------------------------------------------------

_memory: dict[tuple[Rules, str], MatchSolution] = {}
_lock = threading.Lock()


def _file_name(rules: Rules, fmt: GameFormat) -> str:
    key = f"{TABLE_VERSION}|{rules!r}|{fmt}"
    return f"{fmt.kind.value}-{hashlib.sha1(key.encode()).hexdigest()[:20]}.npz"


def cache_path(rules: Rules, game_format: str | GameFormat) -> Any:
    """Where the table of a rule set and format is kept on disk."""
    from shutthebox.paths import data_dir

    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    rules = rules.replace(instant_win=fmt.shut_box_wins(rules))
    return data_dir() / "match" / _file_name(rules, fmt)


def _load(path: Any, rules: Rules, fmt: GameFormat) -> MatchSolution | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            tables = {k: data[k] for k in data.files}
    except (OSError, ValueError):
        return None
    first_win = float(tables.pop("_first_win"))
    return MatchSolution(rules, fmt, first_win, _distinct_scores(rules), tables)


def _save(path: Any, solution: MatchSolution) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part.npz")
    arrays: dict[str, Any] = {k: np.asarray(v) for k, v in solution.tables.items()}
    np.savez(partial, _first_win=np.array(solution.first_win), **arrays)
    partial.replace(path)


def table_needed(game_format: str | GameFormat, players: int) -> GameFormat | None:
    """The format whose two-player table exact play reads in a game of ``players``: a battle,
    or a match of several rounds between two or more (against more, the table of the
    leading rival); None where exact play needs none (a game alone, a single round, which
    are solved exactly and cheaply).

    >>> table_needed("loser-at:100", 3), table_needed("single", 2), table_needed("rounds:3", 1)
    (GameFormat.parse('loser-at:100'), None, None)
    """
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    return fmt if fmt.needs_table(players) else None


def is_cached(rules: Rules, game_format: str | GameFormat) -> bool:
    """Whether the table is already in memory or on disk (no progress bar is needed)."""
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    resolved = rules.replace(instant_win=fmt.shut_box_wins(rules))
    return (resolved, str(fmt)) in _memory or bool(cache_path(rules, fmt).exists())


def solve_match(rules: Rules, game_format: str | GameFormat = "single", players: int = 2,
                progress: Progress | None = None, disk: bool = True) -> MatchSolution:
    """The exact two-player match: each seat's chance to win under optimal play by both
    (:attr:`MatchSolution.win`) and the tables that play every turn of it exactly
    (:meth:`MatchSolution.turn_objective`, :meth:`MatchSolution.battle_values`).

    ``rules.instant_win`` left unset takes the format's default (on in ``single``, off in
    multi-round formats). ``progress`` is told the fraction done while a table is computed;
    ``disk`` keeps tables in the data folder. For more players see
    :func:`shutthebox.solver.rounds.solve_round` (the deciding single round, exact).
    """
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    if players != 2:
        raise FormatError(f"the exact match solver is for two players, not {players}: for "
                          f"more, the deciding single round is exact (solve_round)")
    fmt.check(rules, players)
    rules = rules.replace(instant_win=fmt.shut_box_wins(rules))
    key = (rules, str(fmt))
    with _lock:
        found = _memory.get(key)
        if found is not None:
            return found
        path = cache_path(rules, fmt) if disk else None
        solution = _load(path, rules, fmt) if path is not None and path.exists() else None
        if solution is None:
            solution = _compute(rules, fmt, progress)
            if path is not None:
                with contextlib.suppress(OSError):   # a read-only folder: memory only
                    _save(path, solution)
        _memory[key] = solution
        return solution


def match_tiles_after(board: Tiles, move: Tiles, role: str) -> Tiles:
    """A battle's board after the knocker shuts or the stander stands ``move``."""
    return board | move if role == Role.STAND else board & ~move


# --- match play against a fixed player, exactly ------------------------------------------------

def _score_chances(rules: Rules, objective: Objective | str) -> FloatArray:
    """The distribution of a turn's score (by index in the distinct scores) under optimal play
    of a fixed objective."""
    from shutthebox.solver.solve import solve

    ended = np.zeros(1 << rules.tiles)
    for mask, p in solve(rules, objective).final_distribution.items():
        ended[mask] = p
    counts = np.bincount(_score_index(rules), weights=ended,
                         minlength=len(_distinct_scores(rules)))
    return np.asarray(counts, dtype=np.float64)


def _match_chances(solution: MatchSolution, vectors: FloatArray) -> FloatArray:
    """Per row of per-score chances (the mover's), the distribution of the turn's score under
    the mover's exact match play (the same tie rules as the player)."""
    from shutthebox.solver.solve import forward, solve_batch

    rules = solution.rules
    batch = solve_batch(rules, _finals(rules, vectors).T.copy())
    ended = forward(rules, batch.dice_table, batch.group_moves)
    index = _score_index(rules)
    m = len(solution.scores)
    return np.stack([np.bincount(index, weights=ended[:, k], minlength=m)
                     for k in range(ended.shape[1])])


def against_score_player(rules: Rules, game_format: str, match_first: bool) -> float:
    """The exact chance that the match player (``optimal``) wins a two-player match against
    the score player (``optimal:score``), playing first or second (turn formats only).

    >>> from shutthebox.rules import Rules
    >>> first = against_score_player(Rules(tiles=5), "rounds:2", True)
    >>> second = against_score_player(Rules(tiles=5), "rounds:2", False)
    >>> (first + second) / 2 > 0.5
    True
    """
    solution = solve_match(rules, game_format, disk=False)
    rules, fmt, scores = solution.rules, solution.format, solution.scores
    if fmt.is_battle:
        raise FormatError("against_score_player is for the turn formats, not the battle")
    plain = _score_chances(rules, "score")
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)

    def chances(mover: int, a: IntArray, b: IntArray, r: int) -> FloatArray:
        if (mover == 0) != match_first:
            return np.tile(plain, (len(a), 1))
        if mover == 0:
            return _match_chances(solution, _first_vectors(solution, a, b, r))
        return _match_chances(solution, 1.0 - _second_vectors(solution, a, b, r))

    def settle(first_wins: FloatArray) -> float:
        return float(first_wins if match_first else 1.0 - first_wins)

    if fmt.family is SolverFamily.ROUNDS:
        rounds = fmt.rounds or 1
        nxt: tuple[IntArray, FloatArray] | None = None
        for r in range(rounds - 1, -1, -1):
            first_d = solution.tables[f"first_d{r}"]
            second_d = solution.tables[f"second_d{r}"]
            after = second_d[:, None] - scores[None, :]
            ends = (_compare(rules, after, 0) if nxt is None
                    else nxt[1][np.searchsorted(nxt[0], after)])
            ends = np.where(instant[None, :], 0.0, ends)
            second_v = (chances(1, second_d, np.zeros_like(second_d), r) * ends).sum(axis=1)
            after = first_d[:, None] + scores[None, :]
            ends = np.where(instant[None, :], 1.0, second_v[np.searchsorted(second_d, after)])
            first_v = (chances(0, first_d, np.zeros_like(first_d), r) * ends).sum(axis=1)
            nxt = (first_d, first_v)
        assert nxt is not None
        return settle(nxt[1][0])
    limit = fmt.threshold
    first = np.zeros((limit, limit))
    second = np.zeros((limit, limit))
    zero = int(np.searchsorted(scores, 0))
    loops = scores[zero] == 0 and not instant[zero]
    over_cache: dict[int, float] = {}

    def over_value(a2: int, b: int) -> float:
        """The first's chance once its total ``a2`` reached the limit and the second plays."""
        if a2 - b not in over_cache:
            ends = _compare(rules, np.full(len(scores), a2), b + scores)
            ends = np.where(instant, 0.0, ends)
            p = chances(1, np.array([a2]), np.array([b]), 0)[0]
            over_cache[a2 - b] = float(p @ ends)
        return over_cache[a2 - b]

    for n in range(2 * limit - 2, -1, -1):
        a = np.arange(max(0, n - limit + 1), min(n, limit - 1) + 1)
        b = n - a
        first[a, b] = 0.0   # the loop's term is added once the rest is known
        p_second = chances(1, a, b, 0)
        ends_b = np.where(instant[None, :], 0.0, _threshold_second(rules, limit, first, a, b,
                                                                  scores))
        second[a, b] = (p_second * ends_b).sum(axis=1)
        p_first = chances(0, a, b, 0)
        a2 = a[:, None] + scores[None, :]
        ends_a = np.where(
            a2 >= limit,
            np.vectorize(over_value)(a2, np.broadcast_to(b[:, None], a2.shape)),
            second[np.minimum(a2, limit - 1), b[:, None]])
        ends_a = np.where(instant[None, :], 1.0, ends_a)
        rest = (p_first * ends_a).sum(axis=1)
        loop = p_first[:, zero] * p_second[:, zero] if loops else np.zeros(len(a))
        first[a, b] = rest / (1.0 - loop)
        if loops:
            second[a, b] += p_second[:, zero] * first[a, b]
    return settle(first[0, 0])
