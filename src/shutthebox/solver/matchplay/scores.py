"""What the match solver's families share: the distinct scores of a turn, each final mask's
place among them, and the first player's share when totals are final.

>>> from shutthebox.rules import Rules
>>> distinct_scores(Rules(tiles=3)).tolist(), score_index(Rules(tiles=3)).tolist()
([0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 3, 4, 5, 6])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Progress = Callable[[float], None]
"""Called with the fraction of the work done (0 to 1)."""


@cache
def score_index(rules: Rules) -> IntArray:
    """Each final mask's place among :func:`distinct_scores`."""
    from shutthebox.solver.objectives import score_array

    scores = score_array(rules)
    return np.searchsorted(np.unique(scores), scores)


def distinct_scores(rules: Rules) -> IntArray:
    """The distinct scores a turn can end with, in increasing order."""
    from shutthebox.solver.objectives import score_array

    return np.unique(score_array(rules))


def shares(better: npt.NDArray[np.bool_], tie: npt.NDArray[np.bool_]) -> FloatArray:
    """A win counted 1 and a tie a half."""
    return better.astype(np.float64) + 0.5 * tie


def compare(rules: Rules, mine: Any, other: Any) -> FloatArray:
    """The first player's share when totals ``mine`` and ``other`` are final."""
    better = mine < other if rules.lower_is_better else mine > other
    return shares(better, mine == other)


def finals(rules: Rules, vectors: FloatArray) -> FloatArray:
    """Per-score values to per-mask final values."""
    return np.ascontiguousarray(vectors[:, score_index(rules)])
