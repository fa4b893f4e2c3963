"""The match tables, each solved once: kept in memory, and on disk in the data folder
(``match/`` in :func:`~shutthebox.paths.data_dir`), so a rule set and format is solved once
per machine.

>>> table_needed("loser-at:100", 3), table_needed("single", 2), table_needed("rounds:3", 1)
(GameFormat.parse('loser-at:100'), None, None)
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from typing import Any

import numpy as np
from cachetools import LRUCache

from shutthebox.errors import FormatError
from shutthebox.formats import GameFormat
from shutthebox.rules import Rules
from shutthebox.solver.matchplay.scores import Progress, distinct_scores
from shutthebox.solver.matchplay.solution import MatchSolution, compute

TABLE_VERSION = 1
"""Bumped when the tables' meaning changes, so old files on disk are not read."""

TABLES_IN_MEMORY = 32
"""Match tables a process keeps in memory, the least recently used going first (one let go
is read from the data folder again, or solved again): a server's solver worker is asked for
the tables of any format a client names, and would otherwise keep every one for its life."""

_memory: LRUCache[tuple[Rules, str], MatchSolution] = LRUCache(TABLES_IN_MEMORY)
_lock = threading.Lock()


def _file_name(rules: Rules, fmt: GameFormat) -> str:
    key = f"{TABLE_VERSION}|{rules!r}|{fmt}"
    return f"{fmt.kind.value}-{hashlib.sha1(key.encode()).hexdigest()[:20]}.npz"


def cache_path(rules: Rules, game_format: str | GameFormat) -> Any:
    """Where the table of a rule set and format is kept on disk.

    :raises FormatError: the format cannot be read.
    """
    from shutthebox.paths import data_home

    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    rules = rules.replace(instant_win=fmt.shut_box_wins(rules))
    return data_home() / "match" / _file_name(rules, fmt)   # (made when a table is kept)


def _load(path: Any, rules: Rules, fmt: GameFormat) -> MatchSolution | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            tables = {k: data[k] for k in data.files}
    except (OSError, ValueError):
        return None
    first_win = float(tables.pop("_first_win"))
    return MatchSolution(rules, fmt, first_win, distinct_scores(rules), tables)


def _save(path: Any, solution: MatchSolution) -> None:
    from shutthebox.paths import writing_allowed

    if not writing_allowed():
        return
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

    :raises FormatError: the format cannot be read.
    """
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    return fmt if fmt.needs_table(players) else None


def is_cached(rules: Rules, game_format: str | GameFormat) -> bool:
    """Whether the table is already in memory or on disk (no progress bar is needed).

    :raises FormatError: the format cannot be read.
    """
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

    :raises FormatError: the format cannot be read, does not fit the rules, or is not for
        two players.
    :raises MatchTooLargeError: the table would be too large to compute.
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
            solution = compute(rules, fmt, progress)
            if path is not None:
                with contextlib.suppress(OSError):   # a read-only folder: memory only
                    _save(path, solution)
        _memory[key] = solution
        return solution
