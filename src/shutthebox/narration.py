"""The game in words, for every interface: its format, its rules, and each event of its log.

The terminal and the web page say the same sentences: they are made here and nowhere else
(the terminal adds its colours and indents, the page shows what the server sends it).

A player named "You" is spoken to (:func:`~shutthebox.names.about`): "Your turn", "You play
first", "You shut the box!".

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
from shutthebox.language import N_, _, current_language
from shutthebox.match import Event, EventKind, Match, Pending, PendingKind, format_money
from shutthebox.names import YOU, about, name_of
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


class GameStatusError(ShutTheBoxError):
    """A game status that is none of those a stored game has."""


def format_text(fmt: GameFormat, round_number: int | None) -> str:
    """The format, and the round being played if there is one, in plain words."""
    return _format_text(fmt, round_number, current_language())


@functools.lru_cache(maxsize=1024)
def _format_text(fmt: GameFormat, round_number: int | None, language: str) -> str:
    kind = fmt.kind
    limit = fmt.limit
    if kind is FormatKind.SOLO:
        return _("Solo game")
    if kind is FormatKind.SINGLE:
        return _("One round: the best score wins")
    if kind is FormatKind.ROUNDS:
        return (_("Round {round} of {rounds}").format(round=round_number, rounds=limit)
                if round_number else
                _("{rounds} rounds: the best total wins").format(rounds=limit))
    if kind is FormatKind.ELIMINATION:
        return (_("Elimination: out at {limit} points, round {round}") if round_number else
                _("Elimination: out at {limit} points")).format(limit=limit, round=round_number)
    if kind is FormatKind.LOSER_AT:
        return (_("Game to {limit} points: the highest total loses, round {round}")
                if round_number else _("Game to {limit} points: the highest total loses")
                ).format(limit=limit, round=round_number)
    if kind is FormatKind.RACE:
        return (_("Race to {limit} points, round {round}") if round_number else
                _("Race to {limit} points")).format(limit=limit, round=round_number)
    reading = str(fmt).partition(":")[2]
    return (_("Battle: one roll at a time") if reading == "rolls" else
            _("Battle: a whole turn at a time"))


def rules_text(rules: Rules) -> str:
    """The rules in one line of words (:meth:`Rules.describe`'s rows)."""
    return _rules_text(rules, current_language())


@functools.lru_cache(maxsize=256)
def _rules_text(rules: Rules, language: str) -> str:
    return _("; ").join(_("{rule}: {meaning}").format(rule=name, meaning=meaning)
                        for name, meaning in rules.describe())


def title_text(fmt: GameFormat, round_number: int | None, stake: int, pot: int) -> str:
    """A game's title: its format and round, and its pot when it is played for money.

    >>> title_text(GameFormat.parse("single"), 1, 50, 100)
    'One round: the best score wins · pot 1.00'
    """
    if not stake:
        return format_text(fmt, round_number)
    return _("{format} · pot {pot}").format(format=format_text(fmt, round_number),
                                            pot=format_money(pot))


PRESET_NAMES: Mapping[str, str] = {
    "classic": N_("classic"), "pub": N_("pub"), "pub-digits": N_("pub, scored in digits"),
    "cards": N_("cards"), "family-12": N_("family"),
    "family-12-faces": N_("family, the dice's faces"), "lever-9": N_("lever box"),
    "lever-12": N_("lever box"), "encyclopedia": N_("encyclopedia"),
    "covered": N_("covered tiles"), "children": N_("children"),
    "children-one-die": N_("children, one die"),
    "children-two-tiles": N_("children, two tiles at most"),
    "children-digits": N_("children, scored in digits"), "box-12": N_("twelve-tile box"),
}
"""Each rule set's name in words (the API and the command line take the name itself)."""


def preset_text(preset: Preset) -> dict[str, str]:
    """A named rule set as the new-game form offers it: ``text`` (its name and tiles) and
    ``summary`` (its rules in the words of its rule sheet, as the terminal prints them).

    >>> from shutthebox.rules import PRESETS
    >>> preset_text(PRESETS["classic"])["text"]
    'classic (9 tiles)'
    """
    name = _(PRESET_NAMES[preset.name]) if preset.name in PRESET_NAMES else preset.name
    return {"text": _("{name} ({tiles} tiles)").format(name=name, tiles=preset.rules.tiles),
            "summary": _(preset.summary)}


def choices() -> dict[str, list[dict[str, str]]]:
    """Each choice of a rule and each format, in words: by form field, a list of its values
    (as the API takes them) with their words (those of :meth:`Rules.describe` and
    :func:`format_text`; a format with its usual number).

    >>> choices()["one_die"][1]
    {'value': 'low-sum', 'text': 'when the open tiles sum to 6 or less'}
    """
    def listed(words: Mapping[Any, str]) -> list[dict[str, str]]:
        return [{"value": str(value).lower(), "text": _(text)} for value, text in words.items()
                if value is not None]

    return {"one_die": listed(ONE_DIE_WORDS), "one_die_forced": listed(FORCED_WORDS),
            "moves": listed(MOVE_WORDS), "scoring": listed(SCORING_WORDS),
            "instant_win": listed(SHUT_BOX_WORDS),
            "format": [{"value": kind.value, "text": format_text(GameFormat.parse(kind), None)}
                       for kind in FormatKind]}


# What a move's answer says of the step waited for, each as said to the player and of them
# (marked once here rather than at every call: the server says them at every move).
_CHOOSING_DICE = (N_("You are choosing one die or two…"),
                  N_("{name} is choosing one die or two…"))
_CHOOSING_SHUT = (N_("You rolled {roll} and are choosing tiles to shut…"),
                  N_("{name} rolled {roll} and is choosing tiles to shut…"))
_CHOOSING_STAND = (N_("You rolled {roll} and are choosing tiles to stand up…"),
                   N_("{name} rolled {roll} and is choosing tiles to stand up…"))
_CHOOSING_KNOCK = (N_("You rolled {roll} and are choosing tiles to knock down…"),
                   N_("{name} rolled {roll} and is choosing tiles to knock down…"))
_WAITING_ROLL = (N_("Waiting for you to roll…"),
                 N_("Waiting for {name} to roll…"))
_ASK_DICE = (N_("Roll one die or two?"),
             N_("{name}: roll one die or two?"))
_ASK_SHUT = (N_("You rolled {roll}: shut tiles adding up to {total}."),
             N_("{name} rolled {roll}: shut tiles adding up to {total}."))
_ASK_STAND = (N_("You rolled {roll}: stand up tiles adding up to {total}."),
              N_("{name} rolled {roll}: stand up tiles adding up to {total}."))
_ASK_KNOCK = (N_("You rolled {roll}: knock down tiles adding up to {total}."),
              N_("{name} rolled {roll}: knock down tiles adding up to {total}."))
_ASK_ROLL = (N_("Your roll: press Roll or Enter."),
             N_("{name}: roll the dice."))


def waiting_text(match: Match, computer: bool, pending: Pending | None = None) -> str | None:
    """What the match waits for, as someone watching reads it (None: nobody's step);
    ``computer``: whether the seat to act is a computer's.

    >>> from shutthebox.match import MatchConfig
    >>> waiting_text(Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo"))),
    ...              False)
    'Waiting for Ann to roll…'
    """
    pending = match.pending if pending is None else pending
    if match.is_over or pending.seat is None or pending.kind is PendingKind.ROLL_OFF:
        return None
    name = match.players[pending.seat]
    if computer:
        return _("{name} (computer) is playing…").format(name=name)
    if pending.kind is PendingKind.CHOOSE_DICE:
        return about(name, *_CHOOSING_DICE)
    roll = pending.turn.roll if pending.turn is not None else None
    if pending.kind is PendingKind.SHUT and roll:
        said = format_roll(roll)
        if not pending.role.in_battle:
            return about(name, *_CHOOSING_SHUT, roll=said)
        if pending.role is Role.STAND:
            return about(name, *_CHOOSING_STAND,
                         roll=said)
        return about(name, *_CHOOSING_KNOCK,
                     roll=said)
    return about(name, *_WAITING_ROLL)


def prompt_text(match: Match, named: bool, pending: Pending | None = None) -> str | None:
    """What the player whose step it is is asked to do, spoken to them (None: nobody's
    step); ``named``: address the seat by its name, as at a table of several people on one
    screen, rather than as "you".

    >>> from shutthebox.match import MatchConfig
    >>> match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    >>> prompt_text(match, False), prompt_text(match, True)
    ('Your roll: press Roll or Enter.', 'Ann: roll the dice.')
    """
    pending = match.pending if pending is None else pending
    if match.is_over or pending.seat is None or pending.kind is PendingKind.ROLL_OFF:
        return None
    name = match.players[pending.seat] if named else YOU
    if pending.kind is PendingKind.CHOOSE_DICE:
        return about(name, *_ASK_DICE)
    roll = pending.turn.roll if pending.turn is not None else None
    if pending.kind is PendingKind.SHUT and roll:
        said, total = format_roll(roll), sum(roll)
        if not pending.role.in_battle:
            return about(name, *_ASK_SHUT,
                         roll=said, total=total)
        if pending.role is Role.STAND:
            return about(name, *_ASK_STAND,
                         roll=said, total=total)
        return about(name, *_ASK_KNOCK,
                     roll=said, total=total)
    return about(name, *_ASK_ROLL)


def legend_text(match: Match, pending: Pending | None = None) -> str | None:
    """In a battle, what the marked tiles mean to the player to act (None elsewhere).

    >>> from shutthebox.match import MatchConfig
    >>> legend_text(Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo"))))
    """
    pending = match.pending if pending is None else pending
    if match.is_over or not pending.role.in_battle:
        return None
    if pending.role is Role.STAND:
        return _("Marked tiles are down: stand up tiles adding up to the roll.")
    return _("Marked tiles are up: knock down tiles adding up to the roll.")


def score_text(score: int) -> str:
    """A game alone's result, spoken to its player.

    >>> score_text(7)
    'Your score: 7'
    """
    return _("Your score: {score}").format(score=score)


def joining_text(names: Sequence[str]) -> str:
    """A game waiting for friends to take their seats, in a sentence."""
    if not names:
        return _("Waiting for players to join: nothing is rolled until every seat is taken.")
    return _("Waiting for {names} to join: nothing is rolled until every seat is "
             "taken.").format(names=join_words([name_of(n) for n in names]))


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
    raise GameStatusError(_("no game status {status!r}: it is 'waiting', 'playing' or "
                            "'over'").format(status=status))


def chances_text(p_shut: float, expected_score: float) -> str:
    """The chances from a position under perfect play, in a sentence.

    >>> chances_text(0.0976, 9.94)
    'From here, playing perfectly: a 9.76 % chance to shut the box, and an expected score of 9.94.'
    """
    return _("From here, playing perfectly: a {chance} % chance to shut the box, and an "
             "expected score of {score}.").format(chance=f"{p_shut * 100:.2f}",
                                                  score=f"{expected_score:.2f}")


def winners_line(match: Match) -> str:
    """Who won, a tie read as one."""
    names = [match.players[s] for s in match.winners]
    if len(names) > 1:
        return _("Tie: {names} share the win").format(
            names=join_words([name_of(n) for n in names]))
    return about(names[0], N_("You win!"), N_("{name} wins!"))


def ending_text(match: Match, ended: bool = False) -> dict[str, str | None] | None:
    """How a finished match ends, as its last screen says it (None while it is played):
    ``heading`` (the score of a game alone, else who won), ``pot`` (what became of the pot;
    None without a stake) and ``status`` (that the game is over). A match the host
    ``ended`` says so, with the totals as they stood.

    >>> from shutthebox.match import MatchConfig
    >>> playing = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    >>> ending_text(playing) is None
    True
    >>> ending_text(playing, ended=True)["heading"]
    'The host ended the game: nobody wins it. Totals: Ann 0, Bo 0.'
    """
    if ended and not match.is_over:
        totals = ", ".join(f"{name} {total}" for name, total
                           in zip(match.players, match.totals, strict=True))
        return {"heading": _("The host ended the game: nobody wins it. Totals: {totals}.")
                .format(totals=totals), "pot": None, "status": _("Game over.")}
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
        return Told(about(name, N_("You roll {roll} for first turn"),
                          N_("{name} rolls {roll} for first turn"),
                          roll=format_roll(tuple(event["roll"]))))
    if kind == "first":
        if battle:
            head = about(name, N_("You knock first"), N_("{name} knocks first"))
            return Told(_("{heading}: {goal}").format(heading=head,
                                                      goal=match.config.format.goal),
                        Tone.HEADING, len(head))
        return Told(about(name, N_("You play first"), N_("{name} plays first")),
                    Tone.HEADING) if several else None
    if kind == "round":
        return Told(_("— round {round} —").format(round=event["round"]), Tone.HEADING) \
            if several and not battle else None
    if kind == "turn":
        return Told(_turn_heading(name, event.get("role")), Tone.HEADING) if several else None
    if kind == "eliminated":
        return Told(about(name, N_("You are out with {total}"), N_("{name} is out with {total}"),
                          total=event["total"]), Tone.BAD)
    if kind == "loser":
        losers = [names[s] for s in event["seats"]]
        if len(losers) > 1:
            return Told(_("{names} lose the game").format(
                names=join_words([name_of(n) for n in losers])), Tone.BAD)
        return Told(about(losers[0], N_("You lose the game"), N_("{name} loses the game")),
                    Tone.BAD)
    if kind == "winner":
        return Told(winners_line(match), Tone.GOOD) if several else None
    if kind == "ante":
        return Told(_("everyone antes {stake}: pot {pot}").format(
            stake=format_money(event["stake"]), pot=format_money(event["pot"])))
    if kind == "payout":
        return Told(about(name, N_("You take {amount}"), N_("{name} takes {amount}"),
                          amount=format_money(event["amount"])))
    return None


def _turn_heading(name: str, role: str | None) -> str:
    """Whose turn (or whose knock or stand in a battle) begins."""
    if role == "knock":
        return about(name, N_("Your knock"), N_("{name}'s knock"))
    if role == "stand":
        return about(name, N_("Your stand"), N_("{name}'s stand"))
    return about(name, N_("Your turn"), N_("{name}'s turn"))


def table_text(event: Event, names: Sequence[str]) -> str | None:
    """An event of a table played online (:class:`~shutthebox.match.TableKind`) in words.

    >>> table_text({"type": "timeout", "seat": 1, "action": "shut"}, ["Ann", "Bo"])
    'Time ran out for Bo: the computer makes this move for them'
    >>> table_text({"type": "away", "seat": 0, "reason": "missed", "missed": 3}, ["Ann", "Bo"])
    'Ann missed 3 turns in a row: the computer plays for them until they come back'
    """
    kind = event["type"]
    seat = event.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if kind == "timeout":
        if name == YOU:
            return _("Your time ran out: the computer makes this move for you")
        return _("Time ran out for {name}: the computer makes this move for them").format(
            name=name)
    if kind == "away":
        if event.get("reason") == "host":
            return _("The host handed {name}'s seat to the computer until they come "
                     "back").format(name=name)
        return _("{name} missed {count} turns in a row: the computer plays for them until "
                 "they come back").format(name=name, count=event.get("missed", 0))
    if kind == "back":
        return _("{name} is back and plays again").format(name=name)
    if kind == "pause":
        return _("The host paused the turn clock")
    if kind == "resume":
        return _("The host started the turn clock again")
    if kind == "end":
        return _("The host ended the game: nobody wins it")
    return None


def computer_move_text(reason: str, name: str) -> str:
    """A decision the computer made for a person, as the review says it (``reason``:
    ``timeout`` or ``away``, :func:`shutthebox.web.play.table.computer_moves`).

    >>> computer_move_text("timeout", "Bo")
    "Bo's time ran out: the computer played this"
    """
    if reason == "away":
        return _("{name} was away: the computer played this").format(name=name)
    return _("{name}'s time ran out: the computer played this").format(name=name)


def presence_text(name: str, here: bool) -> str:
    """A player who opened the game's page (``here``) or left it, in a sentence.

    >>> presence_text("Bo", False)
    'Bo left'
    """
    if here:
        return _("{name} is here").format(name=name)
    return _("{name} left").format(name=name)


_STEPS = ("roll", "dice", "shut", "stand", "pass", "turn-end")


def _step(event: Event, name: str, battle: bool) -> Told:
    """A step within a turn in words (the same steps come back in every game: each is
    said once per language, player and step)."""
    kind = event["type"]
    payload: Any
    if kind == "roll":
        payload = tuple(event["roll"])
    elif kind == "dice":
        payload = event["dice"]
    elif kind in ("shut", "stand"):
        payload = tuple(event["tiles"])
    elif kind == "pass":
        payload = None
    else:
        payload = (bool(event["shut_box"]), event["score"], tuple(event["open"]))
    told = _said_step(kind, name, battle, payload, current_language())
    # The short form leaves the player out ("rolls 3+5=8", "shut 1 7" under the turn's
    # heading): the reader's own steps are said whole, to them ("You roll 3+5=8").
    return told._replace(brief=None) if name == YOU else told


@functools.lru_cache(maxsize=4096)
def _said_step(kind: str, name: str, battle: bool, payload: Any, language: str) -> Told:
    if kind == "roll":
        roll = format_roll(payload)
        return Told(about(name, N_("You roll {roll}"), N_("{name} rolls {roll}"), roll=roll),
                    step=True, brief=_("rolls {roll}").format(roll=roll))
    if kind == "dice":
        if payload == 1:
            return Told(about(name, N_("You choose one die"), N_("{name} chooses one die")),
                        step=True, brief=_("chooses one die"))
        return Told(about(name, N_("You choose two dice"), N_("{name} chooses two dice")),
                    step=True, brief=_("chooses two dice"))
    if kind in ("shut", "stand"):
        tiles = format_move(mask_of(payload))
        if kind == "stand":
            said = about(name, N_("You stand up {tiles}"), N_("{name} stands up {tiles}"),
                         tiles=tiles)
            return Told(said, step=True, brief=_("stand up {tiles}").format(tiles=tiles))
        said = (about(name, N_("You knock down {tiles}"), N_("{name} knocks down {tiles}"),
                      tiles=tiles) if battle else
                about(name, N_("You shut {tiles}"), N_("{name} shuts {tiles}"), tiles=tiles))
        return Told(said, step=True, brief=_("shut {tiles}").format(tiles=tiles))
    if kind == "pass":
        return Told(about(name, N_("You have no move and pass"),
                          N_("{name} has no move and passes")), step=True)
    shut_box, score, open_tiles = payload
    if shut_box:
        head = about(name, N_("You shut the box!"), N_("{name} shuts the box!"))
        return Told(_("{heading} score {score}").format(heading=head, score=score),
                    Tone.GOOD, len(head), step=True)
    return Told(about(name, N_("no move: your turn ends with {tiles} open, score {score}"),
                      N_("no move: {name}'s turn ends with {tiles} open, score {score}"),
                      tiles=format_move(mask_of(open_tiles)), score=score),
                step=True)
