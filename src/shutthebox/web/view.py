"""The view of a game the page is sent: its seats, the match's position, what the game waits
for and the legal choices, and the events since a number; and a batch of stored events as
the live feed sends it to watchers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shutthebox.match import GameFormat, PendingKind
from shutthebox.rules import Rules
from shutthebox.tiles import tiles_of
from shutthebox.web.cache import LoadedGame
from shutthebox.web.codec import dumps
from shutthebox.web.seats import SeatKind
from shutthebox.web.words import format_text


@dataclass(frozen=True)
class Batch:
    """A batch of events just stored: the event numbers before and after it, and its live
    message (the state with the batch's events, as a watcher without a seat sees it)."""

    since: int
    count: int
    message: str
    over: bool = False
    """Whether the game is over after the batch."""

    @staticmethod
    def of(state: dict[str, Any], members: str | None = None) -> Batch:
        """The batch of a state; ``members``: the state already encoded by
        :func:`state_members`."""
        members = state_members(state) if members is None else members
        return Batch(int(state["since"]), int(state["event_count"]),
                     f'{{"type": "state", {members}, "you": []}}', state["status"] == "over")


def state_members(state: dict[str, Any]) -> str:
    """The state's members as JSON, without its braces and without ``you`` (the seats of the
    reader): one encoding serves a seat's answer and the watchers' message."""
    return dumps({k: v for k, v in state.items() if k != "you"})[1:-1]


def game_view(game_id: str, loaded: LoadedGame, since: int, you: list[int]
              ) -> dict[str, Any]:
    """The game's state as the API answers it, with the events from number ``since`` on,
    for a reader holding the seats ``you``."""
    seats = loaded.seats
    config = loaded.config
    match = loaded.match
    fmt = match.config.format if match is not None else GameFormat.parse(config["format"])
    common = {
        "id": game_id, "rules": config["rules"], "format": str(fmt),
        "seats": [s.to_dict() for s in seats], "you": you,
        "players": [{"name": s.name, "computer": s.computer} for s in seats],
        "stake": config.get("stake", 0), "event_count": loaded.count, "since": since,
        "events": loaded.log(since)}
    if match is None:
        return {**common, "status": "waiting", "format_text": format_text(fmt, None),
                "pot": 0, "pending": {"kind": "join", "seat": None, "role": "join",
                                      "human": False, "roll": None, "dice": None,
                                      "legal": [], "dice_choices": []},
                "board": list(tiles_of(Rules.from_dict(config["rules"]).full)),
                "round": 0, "round_scores": {}, "totals": [0] * len(seats),
                "active": [True] * len(seats), "winners": [], "losers": [],
                "payouts": {}}
    pending = match.pending
    turn = pending.turn
    legal: list[list[int]] = []
    dice_choices: list[int] = []
    if turn is not None and pending.kind is PendingKind.SHUT:
        legal = [list(tiles_of(m)) for m in turn.legal_actions()]
    if turn is not None and pending.kind is PendingKind.CHOOSE_DICE:
        dice_choices = list(turn.legal_actions())
    return {
        **common, "status": "over" if match.is_over else "playing",
        "format_text": format_text(fmt, match.round or None),
        "pot": match.pot,
        "pending": {
            "kind": pending.kind, "seat": pending.seat, "role": pending.role,
            "human": pending.seat is not None and pending.kind is not PendingKind.ROLL_OFF
            and seats[pending.seat].kind is not SeatKind.COMPUTER,
            "roll": list(turn.roll) if turn is not None and turn.roll and
            pending.kind is PendingKind.SHUT else None,
            "dice": turn.dice if turn is not None else None,
            "legal": legal, "dice_choices": dice_choices},
        "board": list(tiles_of(match.board)), "round": match.round,
        "round_scores": {str(s): v for s, v in match.round_scores.items()},
        "totals": list(match.totals), "active": list(match.active),
        "winners": list(match.winners), "losers": list(match.losers),
        "payouts": {str(s): v for s, v in match.payouts.items()},
    }
