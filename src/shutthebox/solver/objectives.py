"""What the solver optimises: a value of the final open tiles, to be maximised.

An objective maps the open tiles at the end of a turn to a number. ``score`` is the expected
score (minimised for sum and digits scoring, maximised for covered), ``shut`` the chance to
shut the box, ``beat:T`` the chance to score strictly better than ``T``, ``reach:T`` the
chance to score ``T`` or better. From Python any function of the final open tiles works.

>>> from shutthebox.rules import Rules, Scoring
>>> parse_objective("beat:10").final_value(Rules(), 0b1111)   # 1 2 3 4 open: score 10
0
>>> parse_objective("reach:10").final_value(Rules(), 0b1111)
1
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, partial
from typing import Union

import numpy as np
import numpy.typing as npt

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.rules import Rules, Scoring
from shutthebox.tiles import Tiles

Number = int | float | Fraction
ObjectiveLike = Union[str, "Objective", Callable[[Tiles], Number]]
"""What :func:`parse_objective` accepts."""
ScoreArray = npt.NDArray[np.int64]
"""The score of every final mask, indexed by the mask."""


class ObjectiveError(ShutTheBoxError):
    """An objective that cannot be read."""


@dataclass(frozen=True)
class Objective:
    """A value of the final position. ``maximise`` is false only for the expected score of
    penalty scoring (sum, digits), where the solver minimises."""

    name: str
    """``score``, ``shut``, ``beat:T``, ``reach:T`` or a caller's own name."""
    function: Callable[[Rules, Tiles], Number] = field(compare=False)
    key: Hashable = None
    """What makes two objectives the same for the cache (by default the name)."""
    is_score: bool = False
    of_scores: Callable[[Rules, ScoreArray], npt.NDArray[np.float64]] | None = field(
        default=None, compare=False)
    """The same values for every mask at once from the scores (for the fast path), if the
    objective depends on the score alone."""

    def final_value(self, rules: Rules, open_tiles: Tiles) -> Number:
        """The value of a turn that ended with these tiles open."""
        return self.function(rules, open_tiles)

    def final_values(self, rules: Rules) -> npt.NDArray[np.float64]:
        """The value of every final mask, as floats indexed by the mask.

        >>> from shutthebox.rules import Rules, Scoring
        >>> SHUT.final_values(Rules(tiles=2)).tolist()
        [1.0, 0.0, 0.0, 0.0]
        """
        if self.of_scores is not None:
            return self.of_scores(rules, score_array(rules)).astype(np.float64)
        return np.array([float(self.function(rules, m)) for m in range(1 << rules.tiles)])

    def maximise(self, rules: Rules) -> bool:
        """Whether a higher value is better for this objective under these rules."""
        return not (self.is_score and rules.lower_is_better)

    def cache_key(self) -> Hashable:
        return self.key if self.key is not None else self.name

    def __str__(self) -> str:
        return self.name


def _score(rules: Rules, open_tiles: Tiles) -> int:
    return rules.score(open_tiles)


def _shut(rules: Rules, open_tiles: Tiles) -> int:
    return int(open_tiles == 0)


@cache
def score_array(rules: Rules) -> ScoreArray:
    """The score of every final mask, indexed by the mask: :meth:`~shutthebox.rules.Rules.score`
    vectorised (the tests hold the two equal for every rule set and mask; the Python call for
    each of 4,096 masks would cost a tenth of the first decision of a round).

    >>> from shutthebox.rules import Rules, Scoring
    >>> score_array(Rules(tiles=10, scoring="digits"))[[0b1000000001, 0b100001001]].tolist()
    [110, 149]
    """
    masks = np.arange(1 << rules.tiles, dtype=np.int64)
    open_tiles = [(masks >> (tile - 1)) & 1 for tile in range(1, rules.tiles + 1)]
    if rules.scoring is Scoring.DIGITS:   # each open tile's digits written after the lower's
        scores = np.zeros(len(masks), dtype=np.int64)
        for tile, is_open in enumerate(open_tiles, start=1):
            scores = np.where(is_open == 1, scores * 10 ** len(str(tile)) + tile, scores)
        return scores
    open_sum: ScoreArray = sum((is_open * tile for tile, is_open in enumerate(open_tiles,
                                                                              start=1)),
                               np.zeros(len(masks), dtype=np.int64))
    if rules.scoring is Scoring.COVERED:
        return rules.tiles * (rules.tiles + 1) // 2 - open_sum
    return open_sum


def _better_scores(rules: Rules, scores: ScoreArray, target: int) -> npt.NDArray[np.bool_]:
    return scores < target if rules.lower_is_better else scores > target


# The objectives' functions are module-level functions (bound with functools.partial) or
# small dataclasses, never closures: an objective then pickles, and so do the players and
# environments that hold one.

def _scores_as_values(rules: Rules, scores: ScoreArray) -> npt.NDArray[np.float64]:
    return scores.astype(np.float64)


def _shut_scores(rules: Rules, scores: ScoreArray) -> npt.NDArray[np.float64]:
    shut: npt.NDArray[np.float64] = (scores == rules.best_score).astype(np.float64)
    return shut


def _beats(rules: Rules, open_tiles: Tiles, target: int) -> int:
    return int(rules.better(rules.score(open_tiles), target))


def _beats_scores(rules: Rules, scores: ScoreArray, target: int) -> npt.NDArray[np.float64]:
    return _better_scores(rules, scores, target).astype(np.float64)


def _reaches(rules: Rules, open_tiles: Tiles, target: int) -> int:
    return int(not rules.better(target, rules.score(open_tiles)))


def _reaches_scores(rules: Rules, scores: ScoreArray, target: int) -> npt.NDArray[np.float64]:
    reached: npt.NDArray[np.bool_] = _better_scores(rules, scores, target) | (scores == target)
    return reached.astype(np.float64)


def _of_open_tiles(function: Callable[[Tiles], Number], rules: Rules,
                   open_tiles: Tiles) -> Number:
    return function(open_tiles)


SCORE = Objective("score", _score, is_score=True, of_scores=_scores_as_values)
SHUT = Objective("shut", _shut, of_scores=_shut_scores)


def beat(target: int) -> Objective:
    """The chance to score strictly better than ``target``."""
    return Objective(f"beat:{target}", partial(_beats, target=target),
                     of_scores=partial(_beats_scores, target=target))


def reach(target: int) -> Objective:
    """The chance to score ``target`` or better."""
    return Objective(f"reach:{target}", partial(_reaches, target=target),
                     of_scores=partial(_reaches_scores, target=target))


@dataclass(frozen=True, eq=False)
class MaskTable:
    """A value of the final tiles read from a table indexed by the mask (a battle's chances
    after a turn)."""

    values: npt.NDArray[np.float64]

    def __call__(self, rules: Rules, open_tiles: Tiles) -> float:
        return float(self.values[open_tiles])


@dataclass(frozen=True, eq=False)
class IndexedTable:
    """A value of the final tiles that depends on the score alone, read from a table:
    ``values[index[mask]]``, where ``index`` gives each mask's entry (its score's place among
    the distinct scores, or its rank)."""

    values: npt.NDArray[np.float64]
    index: npt.NDArray[np.int64]

    def __call__(self, rules: Rules, open_tiles: Tiles) -> float:
        return float(self.values[self.index[open_tiles]])

    def of_scores(self, rules: Rules, scores: ScoreArray) -> npt.NDArray[np.float64]:
        """The values of every mask at once (the scores are those ``index`` was made from)."""
        return self.values[self.index]


def table_objective(name: str, table: IndexedTable, key: Hashable) -> Objective:
    """An objective that reads its values from a table of the scores (a match's chances by
    score, a round's shares by rank)."""
    return Objective(name, table, key=key, of_scores=table.of_scores)


def custom(name: str, function: Callable[[Rules, Tiles], Number]) -> Objective:
    """A caller's own objective: any value of the final open tiles, maximised.

    >>> from shutthebox.rules import Rules, Scoring
    >>> half_for_ties = custom("win-vs-10", lambda r, t: 1 if r.score(t) < 10 else
    ...                        Fraction(1, 2) if r.score(t) == 10 else 0)
    >>> half_for_ties.final_value(Rules(), 0b1111)
    Fraction(1, 2)
    """
    return Objective(name, function, key=(name, function))


def parse_objective(text: ObjectiveLike) -> Objective:
    """Read ``score``, ``shut``, ``beat:T`` or ``reach:T``; an :class:`Objective` is kept as it
    is, and a plain function of the final open tiles becomes a :func:`custom` objective named
    after it.

    >>> from shutthebox.rules import Rules, Scoring
    >>> def two_open_tiles_or_fewer(open_tiles):
    ...     return int(open_tiles.bit_count() <= 2)
    >>> objective = parse_objective(two_open_tiles_or_fewer)
    >>> objective.name, objective.final_value(Rules(), 0b11)
    ('two_open_tiles_or_fewer', 1)
    >>> parse_objective("beat:x")
    Traceback (most recent call last):
    ...
    shutthebox.solver.objectives.ObjectiveError: cannot read objective 'beat:x': \
the target must be a whole number, like beat:10
    """
    if callable(text) and not isinstance(text, Objective):
        function = text
        return Objective(getattr(function, "__name__", repr(function)),
                         partial(_of_open_tiles, function), key=("callable", function))
    if not isinstance(text, str | Objective):
        raise ObjectiveError(f"cannot use {text!r} as an objective: give score, shut, "
                             "beat:T, reach:T, an Objective or a function of the open tiles")
    if isinstance(text, Objective):
        return text
    name, _sep, target = text.strip().partition(":")
    if name in ("score", "shut") and not target:
        return SCORE if name == "score" else SHUT
    if name in ("beat", "reach"):
        if not target.lstrip("-").isdigit():
            raise ObjectiveError(_("cannot read objective {text!r}: the target must be a "
                                   "whole number, like {name}:10").format(text=text, name=name))
        return (beat if name == "beat" else reach)(int(target))
    raise ObjectiveError(_("unknown objective {text!r}: choose score, shut, beat:T or "
                           "reach:T").format(text=text))
