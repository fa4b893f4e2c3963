"""The game in words, for every interface: its format, its rules, and each event of its log.

The terminal and the web page say the same sentences: they are made here and nowhere else
(the terminal adds its colours and indents, the page shows what the server sends it).

A player named "You" is spoken to: "Your turn", "You play first", "You shut the box!".

>>> from shutthebox.formats import GameFormat
>>> from shutthebox.match import Match, MatchConfig
>>> from shutthebox.rules import Rules
>>> match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
>>> tell({"type": "roll", "seat": 1, "roll": [3, 5]}, match).text
'Bo rolls 3+5=8'
>>> format_text(GameFormat.parse("rounds:3"), 2)
'Round 2 of 3'
>>> format_text(GameFormat.parse("elimination:45"), None)
'Elimination: out at 45 points'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple

from shutthebox.dice import format_roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.formats import FormatKind, GameFormat
from shutthebox.language import _
from shutthebox.match import Event, EventKind, Match, PendingKind, format_money
from shutthebox.phrases import join_words
from shutthebox.players.base import Role
from shutthebox.rules import (
    FORCED_WORDS,
    MOVE_WORDS,
    ONE_DIE_WORDS,
    SCORING_WORDS,
    SHUT_BOX_WORDS,
    Preset,
    Rules,
)
from shutthebox.strategies import format_move
from shutthebox.tiles import mask_of

YOU = "You"
"""The name that makes the game speak to the player."""


class GameStatusError(ShutTheBoxError):
    """A game status that is none of those a stored game has."""


def subject(name: str, verb: str, verb_for_you: str) -> str:
    """``name`` with the verb agreeing: ``'Ann shuts'``, ``'You shut'``.

    >>> subject("You", "shuts", "shut"), subject("Ann", "shuts", "shut")
    ('You shut', 'Ann shuts')
    """
    return f"{name} {verb_for_you if name == YOU else verb}"


def possessive(name: str) -> str:
    """``"Ann's"``, or ``'Your'``."""
    return "Your" if name == YOU else f"{name}'s"


@functools.lru_cache(maxsize=1024)
def format_text(fmt: GameFormat, round_number: int | None) -> str:
    """The format, and the round being played if there is one, in plain words."""
    kind = fmt.kind
    limit = fmt.limit
    at = f", round {round_number}" if round_number else ""
    if kind is FormatKind.SOLO:
        return "Solo game"
    if kind is FormatKind.SINGLE:
        return "One round: the best score wins"
    if kind is FormatKind.ROUNDS:
        return (f"Round {round_number} of {limit}" if round_number
                else f"{limit} rounds: the best total wins")
    if kind is FormatKind.ELIMINATION:
        return f"Elimination: out at {limit} points{at}"
    if kind is FormatKind.LOSER_AT:
        return f"Game to {limit} points: the highest total loses{at}"
    if kind is FormatKind.RACE:
        return f"Race to {limit} points{at}"
    reading = str(fmt).partition(":")[2]
    return "Battle: " + ("one roll at a time" if reading == "rolls"
                         else "a whole turn at a time")


@functools.lru_cache(maxsize=256)
def rules_text(rules: Rules) -> str:
    """The rules in one line of words (:meth:`Rules.describe`'s rows)."""
    return "; ".join(f"{name}: {meaning}" for name, meaning in rules.describe())


def title_text(fmt: GameFormat, round_number: int | None, stake: int, pot: int) -> str:
    """A game's title: its format and round, and its pot when it is played for money.

    >>> title_text(GameFormat.parse("single"), 1, 50, 100)
    'One round: the best score wins · pot 1.00'
    """
    pot_words = f" · pot {format_money(pot)}" if stake else ""
    return format_text(fmt, round_number) + pot_words


def preset_text(preset: Preset) -> dict[str, str]:
    """A named rule set as the new-game form offers it: ``text`` (its name and tiles) and
    ``summary`` (its rules in the words of its rule sheet, as the terminal prints them).

    >>> from shutthebox.rules import PRESETS
    >>> preset_text(PRESETS["classic"])["text"]
    'classic (9 tiles)'
    """
    return {"text": _("{name} ({tiles} tiles)").format(name=preset.name,
                                                       tiles=preset.rules.tiles),
            "summary": preset.summary}


def choices() -> dict[str, list[dict[str, str]]]:
    """Each choice of a rule and each format, in words: by form field, a list of its values
    (as the API takes them) with their words (those of :meth:`Rules.describe` and
    :func:`format_text`; a format with its usual number).

    >>> choices()["one_die"][1]
    {'value': 'low-sum', 'text': 'when the open tiles sum to 6 or less'}
    """
    def listed(words: Mapping[Any, str]) -> list[dict[str, str]]:
        return [{"value": str(value).lower(), "text": text} for value, text in words.items()
                if value is not None]

    return {"one_die": listed(ONE_DIE_WORDS), "one_die_forced": listed(FORCED_WORDS),
            "moves": listed(MOVE_WORDS), "scoring": listed(SCORING_WORDS),
            "instant_win": listed(SHUT_BOX_WORDS),
            "format": [{"value": kind.value, "text": format_text(GameFormat.parse(kind), None)}
                       for kind in FormatKind]}


def waiting_text(match: Match, computer: bool) -> str | None:
    """What the match waits for, as someone watching reads it (None: nobody's step);
    ``computer``: whether the seat to act is a computer's.

    >>> from shutthebox.match import MatchConfig
    >>> waiting_text(Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo"))),
    ...              False)
    'Waiting for Ann to roll…'
    """
    pending = match.pending
    if match.is_over or pending.seat is None or pending.kind is PendingKind.ROLL_OFF:
        return None
    name = match.players[pending.seat]
    if computer:
        return f"{name} (computer) is playing…"
    if pending.kind is PendingKind.CHOOSE_DICE:
        return f"{subject(name, 'is', 'are')} choosing one die or two…"
    roll = pending.turn.roll if pending.turn is not None else None
    if pending.kind is PendingKind.SHUT and roll:
        verb = ("shut" if not pending.role.in_battle else
                "stand up" if pending.role is Role.STAND else "knock down")
        being = "are" if name == YOU else "is"
        return f"{name} rolled {format_roll(roll)} and {being} choosing tiles to {verb}…"
    return f"Waiting for {name} to roll…"


def prompt_text(match: Match, named: bool) -> str | None:
    """What the player whose step it is is asked to do, spoken to them (None: nobody's
    step); ``named``: address the seat by its name, as at a table of several people on one
    screen, rather than as "you".

    >>> from shutthebox.match import MatchConfig
    >>> match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    >>> prompt_text(match, False), prompt_text(match, True)
    ('Your roll: press Roll or Enter.', 'Ann: roll the dice.')
    """
    pending = match.pending
    if match.is_over or pending.seat is None or pending.kind is PendingKind.ROLL_OFF:
        return None
    name = match.players[pending.seat]
    if pending.kind is PendingKind.CHOOSE_DICE:
        return f"{name}: roll one die or two?" if named else "Roll one die or two?"
    roll = pending.turn.roll if pending.turn is not None else None
    if pending.kind is PendingKind.SHUT and roll:
        verb = ("shut" if not pending.role.in_battle else
                "stand up" if pending.role is Role.STAND else "knock down")
        return (f"{name if named else 'You'} rolled {format_roll(roll)}: {verb} tiles adding up "
                f"to {sum(roll)}.")
    return f"{name}: roll the dice." if named else "Your roll: press Roll or Enter."


def legend_text(match: Match) -> str | None:
    """In a battle, what the marked tiles mean to the player to act (None elsewhere).

    >>> from shutthebox.match import MatchConfig
    >>> legend_text(Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo"))))
    """
    pending = match.pending
    if match.is_over or not pending.role.in_battle:
        return None
    if pending.role is Role.STAND:
        return "Marked tiles are down: stand up tiles adding up to the roll."
    return "Marked tiles are up: knock down tiles adding up to the roll."


def score_text(score: int) -> str:
    """A game alone's result, spoken to its player.

    >>> score_text(7)
    'Your score: 7'
    """
    return f"Your score: {score}"


def joining_text(names: Sequence[str]) -> str:
    """A game waiting for friends to take their seats, in a sentence."""
    return f"Waiting for {join_words(list(names)) or 'players'} to join: nothing is rolled " \
           "until every seat is taken."


def status_text(status: str) -> str:
    """A stored game's status (``waiting``, ``playing`` or ``over``) in words, as the list of
    a reader's games says it.

    >>> status_text("waiting")
    'waiting for players'

    :raises GameStatusError: ``status`` is none of the three.
    """
    if status == "waiting":
        return _("waiting for players")
    if status == "playing":
        return _("not finished")
    if status == "over":
        return _("finished")
    raise GameStatusError(f"no game status {status!r}: it is 'waiting', 'playing' or 'over'")


def chances_text(p_shut: float, expected_score: float) -> str:
    """The chances from a position under perfect play, in a sentence.

    >>> chances_text(0.0976, 9.94)
    'From here, playing perfectly: a 9.76 % chance to shut the box, and an expected score of 9.94.'
    """
    return (f"From here, playing perfectly: a {p_shut * 100:.2f} % chance to shut the box, "
            f"and an expected score of {expected_score:.2f}.")


def winners_line(match: Match) -> str:
    """Who won, a tie read as one."""
    names = [match.players[s] for s in match.winners]
    if len(names) > 1:
        return f"Tie: {join_words(names)} share the win"
    return f"{subject(names[0], 'wins', 'win')}!"


def ending_text(match: Match) -> dict[str, str | None] | None:
    """How a finished match ends, as its last screen says it (None while it is played):
    ``heading`` (the score of a game alone, else who won), ``pot`` (what became of the pot;
    None without a stake) and ``status`` (that the game is over).

    >>> from shutthebox.match import MatchConfig
    >>> playing = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    >>> ending_text(playing) is None
    True
    """
    if not match.is_over:
        return None
    names = match.players
    if len(names) == 1:
        heading = score_text(match.round_scores.get(0, match.totals[0]))
    else:
        heading = winners_line(match) if match.winners else _("Game over")
    pot = None
    if match.stake:
        paid = []           # the payout events' own sentences
        for seat, amount in sorted(match.payouts.items()):
            said = tell({"type": EventKind.PAYOUT, "seat": seat, "amount": amount}, match) \
                if amount else None
            if said is not None:
                paid.append(said.text)
        pot = (_("The pot was {pot}: {payouts}.").format(pot=format_money(match.pot),
                                                          payouts=", ".join(paid))
               if paid else _("The pot was {pot}.").format(pot=format_money(match.pot)))
    return {"heading": heading, "pot": pot, "status": _("Game over.")}


def page_sentences() -> dict[str, str]:
    """The sentences about the game that the page completes itself, as templates with their
    ``{placeholders}``: what the tiles picked so far add up to, why a pick is refused, a
    round's end, each tile as a screen reader names it, the hint's captions and a solo
    player's best. They are sent once (with the choices of ``/api/choices``), so that a
    move's answer carries none of them; the page fills in the numbers and names.

    >>> page_sentences()["round_over"].format(round=2)
    'Round 2 is over'
    """
    return {
        "picked": _("Picked {tiles} = {sum}."),
        "picked_legal": _("Picked {tiles} = {sum} ✓ adds up."),
        "pick_wrong": _("Those tiles do not make a move for {target}: pick tiles adding up "
                        "to {target}."),
        "pick_first": _("Pick tiles adding up to {target} first (click them or type their "
                        "numbers)."),
        "round_over": _("Round {round} is over"),
        "tile_open": _("Tile {tile}, open"),
        "tile_shut": _("Tile {tile}, shut"),
        "tile_up": _("Tile {tile}, up"),
        "tile_down": _("Tile {tile}, down"),
        "tile_knock": _("Tile {tile}, up, can knock down"),
        "tile_stand": _("Tile {tile}, down, can stand up"),
        "role_knock": _("knocks down"),
        "role_stand": _("stands up"),
        "hint_roll_first": _("Roll the dice first: hints rank the moves after a roll."),
        "hint_nothing": _("There is nothing to choose now."),
        "hint_caption_score": _("Each move with the score you can expect after it (lower is "
                                "better)"),
        "hint_caption_chance": _("Each move with your chance to win after it"),
        "hint_expected_score": _("Expected score"),
        "hint_chance_to_win": _("Chance to win"),
        "hint_loses_points": _("Loses (points)"),
        "hint_loses_chance": _("Loses (percentage points)"),
        "hint_chance_to_shut": _("Chance to shut"),
        "hint_best": _("best"),
        "invite_waiting": _("Waiting for {name} to join."),
        "invite_seat": _("Invite a friend to seat {seat} ({name}): send them the link, or "
                         "the code {code} to type on the start page."),
        "game_not_found_title": _("Game not found"),
        "game_not_found": _("There is no game at this address. Start a new one, or open one "
                            "from My games."),
        "first_solo_game": _("Your first solo game: no personal best yet."),
        "personal_best": _("Your personal best: {best}."),
    }


class Tone(Enum):
    """How a sentence stands out."""

    PLAIN = "plain"
    HEADING = "heading"
    """A new part of the game: whose turn, a round, who plays first."""
    GOOD = "good"
    """A shut box, a win."""
    BAD = "bad"
    """Someone out, someone who lost."""


class Told(NamedTuple):
    """An event in words: the sentence, how it stands out, and how a turn's steps read (a
    tuple: the server tells every event it sends)."""

    text: str
    tone: Tone = Tone.PLAIN
    stressed: int | None = None
    """How many characters of the start stand out in the tone (None: all of them)."""
    step: bool = False
    """A step within a turn (a roll, a choice, a move, its end), read under the turn's
    heading."""
    brief: str | None = None
    """The step without its player, for a list of steps under the turn's heading (None:
    the whole sentence)."""


def tell(event: Event, match: Match) -> Told | None:
    """One event of ``match`` in words, or None for an event that says nothing a board does
    not show (the turn of a lone player, the end of a round)."""
    names = list(match.players)
    kind = event["type"]
    name = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    several = len(names) > 1
    battle = match.config.format.kind is FormatKind.BATTLE
    if kind in _STEPS:
        return _step(event, name, battle)
    if kind == "roll-off":
        return Told(f"{subject(name, 'rolls', 'roll')} {format_roll(tuple(event['roll']))} "
                    "for first turn")
    if kind == "first":
        if battle:
            head = f"{subject(name, 'knocks', 'knock')} first"
            return Told(f"{head}: {match.config.format.goal}", Tone.HEADING, len(head))
        return Told(f"{subject(name, 'plays', 'play')} first", Tone.HEADING) if several \
            else None
    if kind == "round":
        return Told(f"— round {event['round']} —", Tone.HEADING) if several and not battle \
            else None
    if kind == "turn":
        return Told(f"{possessive(name)} {event.get('role') or 'turn'}", Tone.HEADING) \
            if several else None
    if kind == "eliminated":
        return Told(f"{subject(name, 'is', 'are')} out with {event['total']}", Tone.BAD)
    if kind == "loser":
        losers = [names[s] for s in event["seats"]]
        verb = "lose" if len(losers) > 1 or losers[0] == YOU else "loses"
        return Told(f"{join_words(losers)} {verb} the game", Tone.BAD)
    if kind == "winner":
        return Told(winners_line(match), Tone.GOOD) if several else None
    if kind == "ante":
        return Told(f"everyone antes {format_money(event['stake'])}: "
                    f"pot {format_money(event['pot'])}")
    if kind == "payout":
        return Told(f"{subject(name, 'takes', 'take')} {format_money(event['amount'])}")
    return None


_STEPS = ("roll", "dice", "shut", "stand", "pass", "turn-end")


def _step(event: Event, name: str, battle: bool) -> Told:
    """A step within a turn in words."""
    kind = event["type"]
    if kind == "roll":
        said = f"{format_roll(tuple(event['roll']))}"
        return Told(f"{subject(name, 'rolls', 'roll')} {said}", step=True,
                    brief=f"rolls {said}")
    if kind == "dice":
        said = "one die" if event["dice"] == 1 else "two dice"
        return Told(f"{subject(name, 'chooses', 'choose')} {said}", step=True,
                    brief=f"chooses {said}")
    if kind in ("shut", "stand"):
        tiles = format_move(mask_of(event["tiles"]))
        who = (subject(name, "stands up", "stand up") if kind == "stand" else
               subject(name, "knocks down", "knock down") if battle else
               subject(name, "shuts", "shut"))
        return Told(f"{who} {tiles}", step=True,
                    brief=f"{'shut' if kind == 'shut' else 'stand up'} {tiles}")
    if kind == "pass":
        return Told(subject(name, "has no move and passes", "have no move and pass"),
                    step=True)
    if event["shut_box"]:
        head = f"{subject(name, 'shuts', 'shut')} the box!"
        return Told(f"{head} score {event['score']}", Tone.GOOD, len(head), step=True)
    owner = "your" if name == YOU else f"{name}'s"
    return Told(f"no move: {owner} turn ends with {format_move(mask_of(event['open']))} "
                f"open, score {event['score']}", step=True)
