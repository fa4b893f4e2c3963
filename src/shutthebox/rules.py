"""The rules of Shut the Box as data: one frozen :class:`Rules` value per rule set.

Every axis of the rules catalogue (``RULES.md`` in the repository) is a field. Bad values and
impossible combinations raise :class:`~shutthebox.errors.RulesError` naming the field,
the value and what is allowed.

>>> rules = Rules(tiles=12, one_die="low-sum")
>>> rules.dice_choices(0b111)   # tiles 1 2 3 open: sum 6, one die may be chosen
(1, 2)
>>> rules == eval(repr(rules))
True
>>> Rules(tiles=13)
Traceback (most recent call last):
...
shutthebox.errors.RulesError: tiles must be a whole number from 2 to 12, not 13
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from shutthebox.errors import RulesError, UnknownPresetError
from shutthebox.language import N_, _
from shutthebox.tiles import MAX_TILES, Tiles, full_box, tile_sum, tiles_of


class OneDie(StrEnum):
    """When a player may (or must) roll a single die."""

    NEVER = "never"
    """Two dice always (004 basic game)."""
    LOW_SUM = "low-sum"
    """When the open tiles add up to 6 or less (001, 002)."""
    HIGH_SHUT = "high-shut"
    """When every tile 7 and up is shut (000, 003, 004 variation 1)."""


class MoveRule(StrEnum):
    """Which sets of tiles a roll may shut."""

    ANY = "any"
    """Any set of open tiles adding up to the dice total (all sheets)."""
    DICE = "dice"
    """The tile equal to the total, or the tiles equal to either or both faces (001)."""


class Scoring(StrEnum):
    """How a finished turn is scored."""

    SUM = "sum"
    """Sum of the open tiles; lower is better (all sheets)."""
    DIGITS = "digits"
    """Open tiles read left to right as one number; lower is better (000, 004)."""
    COVERED = "covered"
    """Sum of the shut tiles; higher is better (003)."""


class FirstPlayer(StrEnum):
    """Who starts a game."""

    SEAT = "seat"
    """The first seat starts."""
    LOWEST = "lowest"
    """Everyone rolls; the lowest total starts (002)."""
    HIGHEST = "highest"
    """Everyone rolls; the highest total starts (003)."""


LOW_SUM_LIMIT = 6
"""The open-tile sum at or under which :attr:`OneDie.LOW_SUM` applies."""

HIGH_TILE = 7
"""The lowest of the tiles that must all be shut for :attr:`OneDie.HIGH_SHUT`."""

ONE_DIE_WORDS = {
    OneDie.NEVER: N_("never: two dice always"),
    OneDie.LOW_SUM: N_("when the open tiles sum to 6 or less"),
    OneDie.HIGH_SHUT: N_("when every tile 7 and up is shut"),
}
"""Each rule of the one die in words (:meth:`Rules.describe`'s, and the web form's), to be
said with :func:`~shutthebox.language._`."""
FORCED_WORDS = {True: N_("forced"), False: N_("the player chooses")}
MOVE_WORDS = {MoveRule.ANY: N_("any tiles adding up to the total"),
              MoveRule.DICE: N_("the total, or either or both dice faces")}
SCORING_WORDS = {Scoring.SUM: N_("sum of open tiles (lower wins)"),
                 Scoring.DIGITS: N_("open tiles read as one number (lower wins)"),
                 Scoring.COVERED: N_("sum of shut tiles (higher wins)")}
SHUT_BOX_WORDS: dict[bool | None, str] = {
    True: N_("wins the match at once"), False: N_("best score, play goes on"),
    None: N_("wins at once in a single round; in multi-round formats scores 0 for the round")}
FIRST_PLAYER_WORDS = {FirstPlayer.SEAT: N_("seat order"),
                      FirstPlayer.LOWEST: N_("lowest roll starts"),
                      FirstPlayer.HIGHEST: N_("highest roll starts")}


def _choice(enum: type[StrEnum], field: str, value: object) -> Any:
    try:
        return enum(value)  # type: ignore[arg-type]
    except ValueError:
        allowed = ", ".join(repr(str(m)) for m in enum)
        raise RulesError(_("{field} must be one of {allowed}, not {value!r}").format(
            field=field, allowed=allowed, value=value)) from None


def _whole(field: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(_("{field} must be a whole number from {low} to {high}, not "
                           "{value!r}").format(field=field, low=low, high=high, value=value))
    return value


@dataclass(frozen=True)
class Rules:
    """One rule set. Hashable, comparable and printable as code (``repr`` round-trips)."""

    tiles: int = 9
    """Number of tiles, ``2`` to ``12``."""
    one_die: OneDie = OneDie.NEVER
    """When a single die may be rolled."""
    one_die_forced: bool = False
    """If true, a single die *must* be rolled whenever :attr:`one_die` applies."""
    moves: MoveRule = MoveRule.ANY
    """Which tile sets a roll may shut."""
    max_tiles: int | None = None
    """At most this many tiles per roll (004 variation 2 uses 2); ``None`` for no limit."""
    scoring: Scoring = Scoring.SUM
    """How a turn is scored."""
    instant_win: bool | None = None
    """A shut box wins the match at once (true), or is just the best score of the round, 0
    (false); ``None`` leaves it to the format: on in ``single`` and ``solo``, off in every
    multi-round format (see :meth:`shut_box_wins`)."""
    first_player: FirstPlayer = FirstPlayer.SEAT
    """Who starts a game."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "tiles", _whole("tiles", self.tiles, 2, MAX_TILES))
        set_(self, "one_die", _choice(OneDie, "one_die", self.one_die))
        set_(self, "moves", _choice(MoveRule, "moves", self.moves))
        set_(self, "scoring", _choice(Scoring, "scoring", self.scoring))
        set_(self, "first_player", _choice(FirstPlayer, "first_player", self.first_player))
        if not isinstance(self.one_die_forced, bool):
            raise RulesError(_("one_die_forced must be true or false, not {value!r}").format(
                value=self.one_die_forced))
        if self.instant_win is not None and not isinstance(self.instant_win, bool):
            raise RulesError(_("instant_win must be true, false or null (the format decides), "
                               "not {value!r}").format(value=self.instant_win))
        if self.max_tiles is not None:
            _whole("max_tiles", self.max_tiles, 1, self.tiles)
        if self.one_die_forced and self.one_die is OneDie.NEVER:
            raise RulesError(
                _("one_die_forced=True needs a one-die rule, but one_die is 'never': "
                      "choose one_die='low-sum' or 'high-shut'")
            )

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            parts.append(f"{f.name}={str(value)!r}" if isinstance(value, StrEnum) else
                         f"{f.name}={value!r}")
        return f"Rules({', '.join(parts)})"

    # --- the box -----------------------------------------------------------------

    @property
    def full(self) -> Tiles:
        """All tiles open."""
        return full_box(self.tiles)

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is the better one (false only for covered scoring)."""
        return self.scoring is not Scoring.COVERED

    def shut_box_wins(self, multi_round: bool) -> bool:
        """Whether a shut box wins the match at once: :attr:`instant_win` when it is set, else
        the format's default, on in a single round (and solo), off in multi-round formats,
        where the sheets score a shut box 0 for the round.

        >>> Rules().shut_box_wins(multi_round=False), Rules().shut_box_wins(multi_round=True)
        (True, False)
        >>> Rules(instant_win=True).shut_box_wins(multi_round=True)
        True
        """
        return (not multi_round) if self.instant_win is None else self.instant_win

    # --- dice ---------------------------------------------------------------------

    def one_die_allowed(self, open_tiles: Tiles) -> bool:
        """Whether the one-die trigger holds for these open tiles."""
        if self.one_die is OneDie.LOW_SUM:
            return tile_sum(open_tiles) <= LOW_SUM_LIMIT
        if self.one_die is OneDie.HIGH_SHUT:
            return open_tiles >> (HIGH_TILE - 1) == 0
        return False

    def dice_choices(self, open_tiles: Tiles) -> tuple[int, ...]:
        """The numbers of dice that may be rolled now: ``(2,)``, ``(1, 2)`` or ``(1,)``."""
        if not self.one_die_allowed(open_tiles):
            return (2,)
        return (1,) if self.one_die_forced else (1, 2)

    # --- scoring ------------------------------------------------------------------

    def score(self, open_tiles: Tiles) -> int:
        """The score of a turn that ended with these tiles open.

        >>> Rules().score(0b1000011)          # 1 2 7 open
        10
        >>> Rules(scoring="digits").score(0b100001001)   # 1 4 9
        149
        >>> Rules(tiles=10, scoring="digits").score(0b1000000001)  # 1 10
        110
        >>> Rules(scoring="covered").score(0b1000011)     # 3 4 5 6 8 9 shut
        35
        """
        if self.scoring is Scoring.SUM:
            return tile_sum(open_tiles)
        if self.scoring is Scoring.DIGITS:
            digits = "".join(map(str, tiles_of(open_tiles)))
            return int(digits) if digits else 0
        return tile_sum(self.full & ~open_tiles)

    @property
    def best_score(self) -> int:
        """The score of a shut box."""
        return self.score(0)

    @property
    def worst_score(self) -> int:
        """The score of a turn that shut nothing."""
        return self.score(self.full)

    def better(self, score: int, other: int) -> bool:
        """Whether ``score`` is strictly better than ``other`` under this scoring."""
        return score < other if self.lower_is_better else score > other

    # --- data ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready values."""
        return {f.name: (str(v) if isinstance(v := getattr(self, f.name), StrEnum) else v)
                for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; unknown keys are refused."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                _("unknown rule field {field!r}: known are {known}").format(
                    field=unknown[0], known=", ".join(sorted(known))))
        return cls(**data)

    def describe(self) -> list[tuple[str, str]]:
        """The rules as (name, meaning) rows for people."""
        one_die = _(ONE_DIE_WORDS[self.one_die])
        if self.one_die is not OneDie.NEVER:
            one_die = _("{rule} ({forced})").format(
                rule=one_die, forced=_(FORCED_WORDS[self.one_die_forced]))
        return [
            (_("tiles"), _("1 to {tiles}").format(tiles=self.tiles)),
            (_("one die"), one_die),
            (_("moves"), _(MOVE_WORDS[self.moves])),
            (_("max tiles per roll"),
             _("no limit") if self.max_tiles is None else str(self.max_tiles)),
            (_("scoring"), _(SCORING_WORDS[self.scoring])),
            (_("shut box"), _(SHUT_BOX_WORDS[self.instant_win])),
            (_("first player"), _(FIRST_PLAYER_WORDS[self.first_player])),
        ]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again)."""
        data = self.to_dict()
        data.update(changes)
        return Rules.from_dict(data)


@dataclass(frozen=True)
class Preset:
    """A named rule set and the rule sheet it comes from (both said with ``_``)."""

    name: str
    rules: Rules
    source: str
    summary: str
    alias_of: str | None = None
    """The preset this one is another name for (the same rules from the same sheet)."""


PRESETS: dict[str, Preset] = {p.name: p for p in [
    Preset("classic", Rules(), N_("004 basic game"),
           N_("9 tiles, two dice always, any combination, sum scoring")),
    Preset("pub", Rules(one_die=OneDie.HIGH_SHUT), "000",
           N_("9 tiles; one die may be chosen once 7, 8 and 9 are shut")),
    Preset("pub-digits", Rules(one_die=OneDie.HIGH_SHUT, scoring=Scoring.DIGITS),
           N_("000 alternative score method"), N_("as pub, open tiles read as one number")),
    Preset("cards", Rules(tiles=10, one_die=OneDie.HIGH_SHUT), N_("000 (a row of ten cards)"),
           N_("10 tiles Ace to 10; one die may be chosen once 7 and up are shut")),
    Preset("family-12", Rules(tiles=12, one_die=OneDie.LOW_SUM), "001",
           N_("12 tiles; one die may be chosen when the open tiles sum to 6 or less")),
    Preset("family-12-faces", Rules(tiles=12, one_die=OneDie.LOW_SUM, moves=MoveRule.DICE),
           N_("001 alternative"),
           N_("as family-12, but shut the total or either or both dice faces")),
    Preset("lever-9", Rules(one_die=OneDie.LOW_SUM, first_player=FirstPlayer.LOWEST), "002",
           N_("9 levers; one die when the open tiles sum to 6 or less; lowest roll starts")),
    Preset("lever-12", Rules(tiles=12, one_die=OneDie.LOW_SUM, first_player=FirstPlayer.LOWEST),
           "002",
           N_("12 levers; one die when the open tiles sum to 6 or less; lowest roll starts")),
    Preset("encyclopedia", Rules(one_die=OneDie.HIGH_SHUT, one_die_forced=True,
                                 first_player=FirstPlayer.HIGHEST), "003",
           N_("9 tiles; only one die once every tile above 6 is shut; highest roll starts")),
    Preset("covered", Rules(one_die=OneDie.HIGH_SHUT, one_die_forced=True,
                            scoring=Scoring.COVERED, first_player=FirstPlayer.HIGHEST),
           N_("003 'another fun way'"),
           N_("as encyclopedia, scoring the shut tiles (higher wins)")),
    # The children's set's basic game is the classic game: one rule set, two names (the
    # children's variations below start from it). A name whose rules another preset has
    # says so (alias_of), so that no two names differ in nothing without a word.
    Preset("children", Rules(), N_("004 basic game"),
           N_("another name for classic: the same rules, from the same sheet"),
           alias_of="classic"),
    # Sheet 004's first variation is the pub rule of sheet 000: the same rules again.
    Preset("children-one-die", Rules(one_die=OneDie.HIGH_SHUT), N_("004 variation 1"),
           N_("another name for pub: players may choose 1 or 2 dice once no tile above 6 "
              "remains"), alias_of="pub"),
    Preset("children-two-tiles", Rules(max_tiles=2), N_("004 variation 2"),
           N_("at most 2 tiles per roll")),
    Preset("children-digits", Rules(scoring=Scoring.DIGITS), N_("004 variation 4"),
           N_("open tiles read left to right as one number")),
    Preset("box-12", Rules(tiles=12), N_("002 (12 lever set), two dice always"),
           N_("12 tiles, two dice always")),
]}
"""Every named rule set, by name."""


def preset(name: str) -> Rules:
    """The rules of a named preset.

    >>> preset("family-12").tiles
    12
    >>> preset("nine")
    Traceback (most recent call last):
    ...
    shutthebox.errors.UnknownPresetError: unknown preset 'nine': known are box-12, cards, \
children, children-digits, children-one-die, children-two-tiles, classic, covered, \
encyclopedia, family-12, family-12-faces, lever-12, lever-9, pub, pub-digits
    """
    try:
        return PRESETS[name].rules
    except KeyError:
        raise UnknownPresetError(
            _("unknown preset {name!r}: known are {known}").format(
                name=name, known=", ".join(sorted(PRESETS)))) from None
