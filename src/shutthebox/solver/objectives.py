"""What the solver optimises: a value of the final open tiles, to be maximised.

An objective maps the open tiles at the end of a turn to a number. ``score`` is the expected
score (minimised for sum and digits scoring, maximised for covered), ``shut`` the chance to
shut the box, ``beat:T`` the chance to score strictly better than ``T``, ``reach:T`` the
chance to score ``T`` or better. From Python any function of the final open tiles works.

>>> from shutthebox.rules import Rules
>>> parse_objective("beat:10").final_value(Rules(), 0b1111)   # 1 2 3 4 open: score 10
0
>>> parse_objective("reach:10").final_value(Rules(), 0b1111)
1
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction

from shutthebox.errors import ShutTheBoxError
from shutthebox.rules import Rules
from shutthebox.tiles import Tiles

Number = int | float | Fraction


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

    def final_value(self, rules: Rules, open_tiles: Tiles) -> Number:
        """The value of a turn that ended with these tiles open."""
        return self.function(rules, open_tiles)

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


SCORE = Objective("score", _score, is_score=True)
SHUT = Objective("shut", _shut)


def beat(target: int) -> Objective:
    """The chance to score strictly better than ``target``."""
    return Objective(f"beat:{target}",
                     lambda rules, tiles: int(rules.better(rules.score(tiles), target)))


def reach(target: int) -> Objective:
    """The chance to score ``target`` or better."""
    return Objective(f"reach:{target}",
                     lambda rules, tiles: int(not rules.better(target, rules.score(tiles))))


def custom(name: str, function: Callable[[Rules, Tiles], Number]) -> Objective:
    """A caller's own objective: any value of the final open tiles, maximised.

    >>> from shutthebox.rules import Rules
    >>> half_for_ties = custom("win-vs-10", lambda r, t: 1 if r.score(t) < 10 else
    ...                        Fraction(1, 2) if r.score(t) == 10 else 0)
    >>> half_for_ties.final_value(Rules(), 0b1111)
    Fraction(1, 2)
    """
    return Objective(name, function, key=(name, function))


def parse_objective(text: str | Objective) -> Objective:
    """Read ``score``, ``shut``, ``beat:T`` or ``reach:T``.

    >>> parse_objective("beat:x")
    Traceback (most recent call last):
    ...
    shutthebox.solver.objectives.ObjectiveError: cannot read objective 'beat:x': \
the target must be a whole number, like beat:10
    """
    if isinstance(text, Objective):
        return text
    name, _, target = text.strip().partition(":")
    if name in ("score", "shut") and not target:
        return SCORE if name == "score" else SHUT
    if name in ("beat", "reach"):
        if not target.lstrip("-").isdigit():
            raise ObjectiveError(f"cannot read objective {text!r}: the target must be a "
                                 f"whole number, like {name}:10")
        return (beat if name == "beat" else reach)(int(target))
    raise ObjectiveError(
        f"unknown objective {text!r}: choose score, shut, beat:T or reach:T")
