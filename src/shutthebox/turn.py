"""One turn as a state machine of decision and chance nodes.

A turn alternates: an optional *dice choice* (decision), the *roll* (chance), and the
*shut* (decision), until a roll admits no move or the box is shut. The same machine
serves play, the solver, the simulator and the environments.

>>> from shutthebox.rules import Rules
>>> state = TurnState.start(Rules())
>>> state.phase, state.dice
(<Phase.ROLL: 'roll'>, 2)
>>> state = state.apply_roll((3, 5))
>>> [format_tiles(m) for m in state.legal_actions()]
['8', '1 7', '2 6', '3 5', '1 2 5', '1 3 4']
>>> state = state.shut(mask_of([8]))
>>> state.open_tiles == mask_of([1, 2, 3, 4, 5, 6, 7, 9])
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache

from shutthebox.dice import Roll, format_roll, roll_dice, roll_outcomes
from shutthebox.errors import IllegalMoveError
from shutthebox.language import _
from shutthebox.phrases import join_words
from shutthebox.rules import MoveRule, Rules
from shutthebox.tiles import MAX_TILES, Tiles, format_tiles, mask_of, tile_bit, tiles_of


@cache
def _subsets_by_total() -> dict[int, tuple[Tiles, ...]]:
    """Every set of distinct tiles 1..12 grouped by its sum."""
    by_total: dict[int, list[Tiles]] = {}
    for mask in range(1, 1 << MAX_TILES):
        total = sum(tiles_of(mask))
        if total <= 12:
            by_total.setdefault(total, []).append(mask)
    return {total: tuple(masks) for total, masks in by_total.items()}


def move_order_key(move: Tiles) -> tuple[int, ...]:
    """The stable order of moves: compare tiles from the highest down, higher first.

    For a total of 8 this gives 8; 7 1; 6 2; 5 3; 5 2 1; 4 3 1 (as the rule sheets list them).
    """
    return tuple(-t for t in reversed(tiles_of(move)))


@cache
def legal_moves(rules: Rules, open_tiles: Tiles, roll: Roll) -> tuple[Tiles, ...]:
    """Every set of open tiles this roll may shut, in the stable order."""
    total = sum(roll)
    if rules.moves is MoveRule.ANY:
        candidates: set[Tiles] = set(_subsets_by_total().get(total, ()))
    else:
        candidates = {mask_of([total])} if total <= MAX_TILES else set()
        candidates |= {tile_bit(face) for face in roll}
        if len(roll) == 2 and roll[0] != roll[1]:
            candidates.add(tile_bit(roll[0]) | tile_bit(roll[1]))
    moves = [m for m in candidates
             if m & open_tiles == m
             and (rules.max_tiles is None or m.bit_count() <= rules.max_tiles)]
    return tuple(sorted(moves, key=move_order_key))


def explain_illegal(rules: Rules, open_tiles: Tiles, roll: Roll, move: Tiles) -> str:
    """Why a move is not legal, in words that quote the move (lowest tile first, as moves
    are written), the roll and the open tiles.

    >>> explain_illegal(Rules(), 0b111111111, (3, 5), 0b11000)
    'cannot shut 4 and 5: the tiles add up to 9, not 8 (roll 3+5=8, open: 1 2 3 4 5 6 7 8 9)'
    """
    shown = join_words([str(t) for t in tiles_of(move)])
    where = _("(roll {roll}, open: {open})").format(roll=format_roll(roll),
                                                    open=format_tiles(open_tiles))
    if move == 0:
        return _("cannot shut nothing: choose at least one tile {where}").format(where=where)
    outside = move & ~rules.full
    already = move & ~open_tiles
    if outside:
        why = _("cannot shut {tiles}: tile {tile} is not in a box of {count} tiles {where}")
    elif already:
        why = _("cannot shut {tiles}: tile {tile} is already shut {where}")
    elif rules.max_tiles is not None and move.bit_count() > rules.max_tiles:
        why = _("cannot shut {tiles}: at most {most} tiles per roll {where}")
    elif rules.moves is MoveRule.DICE:
        why = _("cannot shut {tiles}: with the dice-faces rule shut the tile of the total or "
                "of either or both faces {where}")
    else:
        why = _("cannot shut {tiles}: the tiles add up to {sum}, not {total} {where}")
    return why.format(tiles=shown, tile=tiles_of(outside or already or move)[0],
                      count=rules.tiles, most=rules.max_tiles, sum=sum(tiles_of(move)),
                      total=sum(roll), where=where)


class Phase(StrEnum):
    """Where a turn stands."""

    CHOOSE_DICE = "choose-dice"
    """Decision: roll one die or two."""
    ROLL = "roll"
    """Chance: the dice are about to be rolled."""
    SHUT = "shut"
    """Decision: which tiles to shut for the roll just made."""
    OVER = "over"
    """The turn has ended: stuck, or the box is shut."""


@dataclass(frozen=True)
class TurnState:
    """A position inside one turn. Immutable: every step returns a new state."""

    rules: Rules
    open_tiles: Tiles
    phase: Phase
    dice: int = 2
    """Dice to roll (in ``ROLL``) or just rolled (in ``SHUT`` and after)."""
    roll: Roll | None = None
    """The last roll, once there is one."""

    @classmethod
    def start(cls, rules: Rules, open_tiles: Tiles | None = None) -> TurnState:
        """The start of a turn, with every tile open unless ``open_tiles`` is given."""
        return cls.before_roll(rules, rules.full if open_tiles is None else open_tiles)

    @classmethod
    def before_roll(cls, rules: Rules, open_tiles: Tiles, roll: Roll | None = None) -> TurnState:
        """The state before the next roll: a dice choice where there is one, else the roll."""
        if open_tiles == 0:
            return cls(rules, 0, Phase.OVER, roll=roll)
        choices = rules.dice_choices(open_tiles)
        if len(choices) > 1:
            return cls(rules, open_tiles, Phase.CHOOSE_DICE, roll=roll)
        return cls(rules, open_tiles, Phase.ROLL, dice=choices[0], roll=roll)

    # --- what kind of node -------------------------------------------------------

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.ROLL

    @property
    def is_decision(self) -> bool:
        return self.phase in (Phase.CHOOSE_DICE, Phase.SHUT)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_shut(self) -> bool:
        """Whether every tile is shut."""
        return self.open_tiles == 0

    @property
    def score(self) -> int:
        """The score of the tiles open now (the turn's score once it is over)."""
        return self.rules.score(self.open_tiles)

    # --- chance ------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        """The possible rolls and their exact probabilities."""
        self._expect(Phase.ROLL, "list rolls")
        return roll_outcomes(self.dice)

    def apply_roll(self, roll: Roll) -> TurnState:
        """The state after a given roll: a shut decision, or the end of the turn."""
        self._expect(Phase.ROLL, "roll")
        roll = tuple(sorted(roll))
        if len(roll) != self.dice or not all(1 <= f <= 6 for f in roll):
            raise IllegalMoveError(_("roll {roll!r} is not a roll of {dice} dice").format(
                                     roll=roll, dice=self.dice))
        phase = Phase.SHUT if legal_moves(self.rules, self.open_tiles, roll) else Phase.OVER
        return replace(self, phase=phase, roll=roll)

    def roll_with(self, rng: random.Random) -> TurnState:
        """Roll the dice with a seedable generator."""
        self._expect(Phase.ROLL, "roll")
        return self.apply_roll(roll_dice(rng, self.dice))

    # --- decisions ---------------------------------------------------------------

    def legal_actions(self) -> tuple[int, ...]:
        """Dice counts in ``CHOOSE_DICE``; tile masks in ``SHUT``, in the stable order."""
        if self.phase is Phase.CHOOSE_DICE:
            return self.rules.dice_choices(self.open_tiles)
        if self.phase is Phase.SHUT:
            assert self.roll is not None
            return legal_moves(self.rules, self.open_tiles, self.roll)
        return ()

    def choose_dice(self, dice: int) -> TurnState:
        """Choose to roll ``dice`` dice."""
        self._expect(Phase.CHOOSE_DICE, "choose dice")
        choices = self.rules.dice_choices(self.open_tiles)
        if dice not in choices:
            raise IllegalMoveError(
                _("cannot roll {dice!r} dice with {open} open: choose {choices}").format(
                  dice=dice, open=format_tiles(self.open_tiles),
                  choices=' or '.join(map(str, choices))))
        return replace(self, phase=Phase.ROLL, dice=dice)

    def shut(self, move: Tiles) -> TurnState:
        """Shut the tiles of ``move``; then the next roll or dice choice, or the end."""
        self._expect(Phase.SHUT, "shut tiles")
        assert self.roll is not None
        if move not in legal_moves(self.rules, self.open_tiles, self.roll):
            raise IllegalMoveError(explain_illegal(self.rules, self.open_tiles, self.roll, move))
        return TurnState.before_roll(self.rules, self.open_tiles & ~move, self.roll)

    def apply(self, action: int) -> TurnState:
        """Apply a decision: a dice count or a tile mask, by phase."""
        if self.phase is Phase.CHOOSE_DICE:
            return self.choose_dice(action)
        return self.shut(action)

    def _expect(self, phase: Phase, doing: str) -> None:
        if self.phase is not phase:
            raise IllegalMoveError(_("cannot {doing} now: the turn is at {value!r}, not "
                                     "{value2!r} (open: {open})").format(
                                     doing=doing, value=self.phase.value, value2=phase.value,
                                     open=format_tiles(self.open_tiles)))
