"""The view of a game the page is sent: its seats, the match's position, what the game waits
for and the legal choices, and the events since a number; its title, rules and events in
words (:mod:`shutthebox.narration`'s sentences, which the page shows as sent); and a batch of
stored events as the live feed sends it to watchers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from shutthebox.dice import format_roll
from shutthebox.language import current_language
from shutthebox.match import TABLE_EVENTS, GameFormat, Match, Pending, PendingKind, format_money
from shutthebox.narration import (
    ending_text,
    format_text,
    joining_text,
    legend_text,
    prompt_text,
    rules_text,
    score_text,
    table_text,
    tell,
    title_text,
    waiting_text,
)
from shutthebox.rules import Rules
from shutthebox.tiles import tiles_of
from shutthebox.web.codec import dumps
from shutthebox.web.play.memory import LoadedGame
from shutthebox.web.play.seats import Seat, SeatKind
from shutthebox.web.storage import now


@dataclass(frozen=True)
class Batch:
    """A batch of events just stored: the event numbers before and after it, and its live
    message (the state with the batch's events, as a watcher without a seat sees it, in
    the language it was made in)."""

    since: int
    count: int
    message: str
    over: bool = False
    """Whether the game is over after the batch."""
    language: str | None = None
    """The language of ``message`` (None: unknown, as another process told it)."""
    spoken: dict[str, Batch] = field(default_factory=dict, compare=False, repr=False)
    """The batch in the other languages its watchers speak, each made once, by the first
    watcher of that language (see :class:`~shutthebox.web.live.feeds.LiveFeed`)."""

    @staticmethod
    def of(state: dict[str, Any], members: str | None = None) -> Batch:
        """The batch of a state; ``members``: the state already encoded by
        :func:`state_members`."""
        members = state_members(state) if members is None else members
        return Batch(int(state["since"]), int(state["event_count"]),
                     f'{{"type": "state", {members}, "you": []}}', state["status"] == "over",
                     current_language())


def state_members(state: dict[str, Any]) -> str:
    """The state's members as JSON, without its braces and without ``you`` (the seats of the
    reader): one encoding serves a seat's answer and the watchers' message."""
    return dumps({k: v for k, v in state.items() if k != "you"})[1:-1]


class _Members(NamedTuple):
    """Members of a game's view that change only with its round, its pot or its seats (every
    answer to a move carries them), and the same encoded as JSON without braces."""

    value: dict[str, Any]
    encoded: str


class _Words:
    """A game's members in one language that change only with its round, its pot or its
    seats, by round and pot."""

    __slots__ = ("members", "seats")

    def __init__(self, seats: tuple[Seat, ...]) -> None:
        self.seats = seats
        self.members: dict[tuple[int | None, int], _Members] = {}


STEPS_SAID = 4096
"""What the waited-for steps say, kept by language, player and step (the same steps come
back in every game): at most this many, all forgotten when full."""
_steps_said: dict[tuple[Any, ...], dict[str, Any]] = {}


def _lasting(game_id: str, loaded: LoadedGame) -> _Members:
    """The game's members that change only with its round, pot or seats, in the current
    language (made again when one of them changes)."""
    language = current_language()
    seats = tuple(loaded.seats)
    words: _Words | None = loaded.words.get(language)
    if words is None or words.seats != seats:
        words = loaded.words[language] = _Words(seats)
    match = loaded.match
    round_number = match.round or None if match is not None else None
    pot = match.pot if match is not None else 0
    found = words.members.get((round_number, pot))
    if found is None:
        value = _members(game_id, loaded, round_number, pot)
        found = words.members[round_number, pot] = _Members(value, dumps(value)[1:-1])
    return found


def game_view(game_id: str, loaded: LoadedGame, since: int, you: list[int]
              ) -> dict[str, Any]:
    """The game's state as the API answers it, with the events from number ``since`` on,
    for a reader holding the seats ``you``."""
    return {**_lasting(game_id, loaded).value, "you": you, **_moving(loaded, since)}


def view_members(game_id: str, loaded: LoadedGame, since: int) -> tuple[str, dict[str, Any]]:
    """:func:`game_view`'s members but ``you`` as JSON without braces (what
    :func:`state_members` makes of it), and its members that a move changes (``since``,
    ``event_count``, ``status`` and the rest): the lasting ones are encoded once."""
    moving = _moving(loaded, since)
    return f"{_lasting(game_id, loaded).encoded},{dumps(moving)[1:-1]}", moving


def _moving(loaded: LoadedGame, since: int) -> dict[str, Any]:
    """The members of the game's view that its moves change."""
    seats = loaded.seats
    match = loaded.match
    events = loaded.log(since)
    common = {"event_count": loaded.count, "since": since, "events": events,
              "events_text": events_text(loaded, since, events), "table": table_view(loaded)}
    if match is None:
        rules = Rules.from_dict(loaded.config["rules"])
        return {**common, "status": "waiting",
                "pending": {"kind": "join", "seat": None, "role": "join", "human": False,
                            "roll": None, "roll_text": None, "dice": None, "legal": [],
                            "dice_choices": [], "text": joining_text(
                                [s.name for s in seats
                                 if s.kind is SeatKind.OPEN and not s.joined])},
                "board": list(tiles_of(rules.full)),
                "round": 0, "round_scores": {}, "totals": [0] * len(seats),
                "active": [True] * len(seats), "winners": [], "losers": [],
                "payouts": {}}
    table = loaded.table
    ended = table.ended
    pending = match.pending
    over = match.is_over
    common["status"] = "over" if over or ended else "playing"
    common["pending"] = pending_view(match, seats, table.plays(pending.seat), ended, pending)
    common["board"] = list(tiles_of(match.board))
    common["round"] = match.round
    common["round_scores"] = {str(s): v for s, v in match.round_scores.items()}
    common["totals"] = list(match.totals)
    common["active"] = list(match.active)
    common["winners"] = list(match.winners)
    common["losers"] = list(match.losers)
    common["payouts"] = {str(s): v for s, v in match.payouts.items()}
    common["score_text"] = score_text(match.round_scores.get(0, match.totals[0])) \
        if over and len(seats) == 1 else None
    common["ending"] = ending_text(match, ended) if over or ended else None
    return common


def _members(game_id: str, loaded: LoadedGame, round_number: int | None, pot: int
             ) -> dict[str, Any]:
    """The members of the game's view that change only with its round, its pot or its
    seats, in the current language."""
    config = loaded.config
    seats = loaded.seats
    match = loaded.match
    fmt = match.config.format if match is not None else GameFormat.parse(config["format"])
    rules = match.rules if match is not None else Rules.from_dict(config["rules"])
    stake = config.get("stake", 0)
    return {
        "id": game_id, "rules": config["rules"], "format": str(fmt),
        "seats": [s.to_dict() for s in seats],
        "players": [{"name": s.name, "computer": s.computer} for s in seats],
        "stake": stake, "rules_text": rules_text(rules),
        "title": title_text(fmt, round_number, stake, pot),
        "format_text": format_text(fmt, round_number),
        "pot": pot, "pot_text": format_money(pot)}


def table_view(loaded: LoadedGame) -> dict[str, Any]:
    """The table (:mod:`shutthebox.web.play.table`) as the page is sent it, with the seconds the
    clock has left for the decision waited for."""
    deadline = loaded.table.deadline
    return loaded.table.to_dict(None if deadline is None
                                else (deadline - now()).total_seconds())


def pending_view(match: Match, seats: list[Seat], played: bool = False,
                 ended: bool = False, pending: Pending | None = None) -> dict[str, Any]:
    """What the match waits for: its kind, the seat and role, whether a person at the table
    acts, the roll to shut tiles for (also in words), the dice, the legal choices, and what
    the game waits for in words. ``played``: the computer plays for the person whose seat
    acts; ``ended``: the host ended the game (nobody acts); ``pending``: ``match.pending``,
    when the caller has it."""
    if pending is None:
        pending = match.pending
    if ended:
        return {"kind": PendingKind.OVER, "seat": None, "role": pending.role, "human": False,
                "roll": None, "roll_text": None, "dice": None, "legal": [],
                "dice_choices": [], "text": None, "prompt": None, "prompt_named": None,
                "legend": None}
    kind = pending.kind
    turn = pending.turn
    shut = turn is not None and kind is PendingKind.SHUT
    computer = pending.seat is not None and (seats[pending.seat].kind is SeatKind.COMPUTER
                                             or played)
    roll = turn.roll if shut and turn is not None and turn.roll else None
    seat = pending.seat
    step = (current_language(), kind, pending.role, roll, computer,
            None if seat is None else match.players[seat])
    words = _steps_said.get(step)
    if words is None:
        words = {
            "roll_text": format_roll(roll) if roll else None,
            "text": waiting_text(match, computer, pending),
            "prompt": None if computer else prompt_text(match, False, pending),
            "prompt_named": None if computer else prompt_text(match, True, pending),
            "legend": legend_text(match, pending)}
        if len(_steps_said) >= STEPS_SAID:
            _steps_said.clear()
        _steps_said[step] = words
    return {
        "kind": kind, "seat": pending.seat, "role": pending.role,
        "human": pending.seat is not None and kind is not PendingKind.ROLL_OFF
        and not computer,
        "roll": list(roll) if roll else None,
        "dice": turn.dice if turn is not None else None,
        "legal": [list(tiles_of(m)) for m in turn.legal_actions()]
        if shut and turn is not None else [],
        "dice_choices": list(turn.legal_actions())
        if turn is not None and kind is PendingKind.CHOOSE_DICE else [],
        **words}


def events_text(loaded: LoadedGame, since: int, events: list[dict[str, Any]]
                ) -> list[str | None]:
    """Each of ``events`` (the game's from number ``since`` on) in words, as the terminal
    says it (None: an event that says nothing the board does not show; the seat events say
    nothing)."""
    skipped = max(0, len(loaded.prefix) - since)
    said: list[str | None] = [None] * skipped
    match = loaded.match
    if match is not None:
        for event in events[skipped:]:
            if event["type"] in TABLE_EVENTS:
                said.append(table_text(event, match.players))
                continue
            told = tell(event, match)
            said.append(told.text if told is not None else None)
    return said
