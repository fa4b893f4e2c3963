"""The single round's tables, kept on disk in the data folder (``round/`` in
:func:`~shutthebox.paths.data_home`), so a later process reads them instead of solving again.

A round's tables (each seat's shares of the holders of the best score,
:class:`~shutthebox.solver.rounds.RoundSolution`) take a sweep to make: with digit scoring on
12 tiles a compiled one, about half a second of one core for four players, and numba's
start-up (about half a second) before it; for a preset numpy's, about 0.35 s. Read from disk
they need only numpy. A file that is missing, unreadable or not a
round's tables is made again; where the data folder cannot be written (a read-only home) the
tables are kept in memory only.

>>> from shutthebox.rules import Rules
>>> table_path(Rules(instant_win=True), 4).name.startswith("4-")
True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.paths import data_home, writing_allowed
from shutthebox.rules import Rules

FloatArray = npt.NDArray[np.float64]

TABLE_VERSION = 1
"""Bumped when the tables' meaning changes, so old files on disk are not read."""


def table_path(rules: Rules, players: int) -> Path:
    """Where the tables of a single round of ``players`` under ``rules`` (``instant_win``
    resolved) are kept."""
    key = f"{TABLE_VERSION}|{rules!r}|{players}"
    return data_home() / "round" / f"{players}-{hashlib.sha1(key.encode()).hexdigest()[:20]}.npz"


def load_tables(rules: Rules, players: int,
                ranks: int) -> tuple[dict[int, FloatArray], dict[int, int]]:
    """The holders' tables kept on disk for seats 1 to ``players - 1`` and how many of the
    best ranks each holds; nothing (two empty dicts) where none is kept or the file is not a
    round's tables of this size."""
    tables: dict[int, FloatArray] = {}
    known: dict[int, int] = {}
    try:
        with np.load(table_path(rules, players), allow_pickle=False) as data:
            counts = data["known"]
            if counts.shape != (players,):
                return {}, {}
            for seat in range(1, players):
                filled = int(counts[seat])
                if filled == 0:
                    continue
                table = data[f"seat{seat}"]
                if not 0 < filled <= ranks or table.shape != (ranks, players + 1) or \
                        table.dtype != np.float64 or not np.all((table >= 0) & (table <= 1)):
                    return {}, {}
                tables[seat], known[seat] = table, filled
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return {}, {}
    return tables, known


def save_tables(rules: Rules, players: int, tables: dict[int, FloatArray],
                known: dict[int, int]) -> None:
    """Keep the holders' tables of seats 1 to ``players - 1`` on disk (written whole under
    another name, then renamed: a reader never sees half a file); nothing where the data
    folder cannot be written."""
    if not writing_allowed():
        return
    path = table_path(rules, players)
    counts = np.array([known.get(seat, 0) if 0 < seat < players else 0
                       for seat in range(players)], dtype=np.int64)
    arrays: dict[str, Any] = {f"seat{seat}": tables[seat] for seat in range(1, players)
                              if counts[seat]}
    partial = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.part")
    with contextlib.suppress(OSError):   # a read-only home: memory only
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(partial, "wb") as file:
                np.savez(file, known=counts, **arrays)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
