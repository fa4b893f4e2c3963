"""What the terminal says: events, moves and notes in words, shared by the full-screen game
and the line mode (which print the same sentences).

A player named "You" is spoken to: "Your turn", "You play first", "You shut the box!".

>>> subject("You", "shuts", "shut"), subject("Ann", "shuts", "shut")
('You shut', 'Ann shuts')
"""

from __future__ import annotations

from rich.markup import escape

from shutthebox.dice import format_roll
from shutthebox.match import Event, FormatKind, Match, format_money
from shutthebox.rules import HIGH_TILE, OneDie, Rules
from shutthebox.strategies import format_move
from shutthebox.tiles import Tiles, mask_of, tile_sum

YOU = "You"
"""The name that makes the game speak to the player."""


def subject(name: str, verb: str, verb_for_you: str) -> str:
    """``name`` with the verb agreeing: ``'Ann shuts'``, ``'You shut'``."""
    return f"{name} {verb_for_you if name == YOU else verb}"


def possessive(name: str) -> str:
    """``"Ann's"``, or ``'Your'``."""
    return "Your" if name == YOU else f"{name}'s"


def join_names(names: list[str]) -> str:
    """``'Ann'``, ``'Ann and Bob'``, ``'Ann, Bob and Cy'``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def one_die_note(rules: Rules, open_tiles: Tiles) -> str | None:
    """Why one die may or must be rolled now, or None when two dice are rolled.

    >>> from shutthebox.rules import preset
    >>> one_die_note(preset("encyclopedia"), 0b000111111)
    'one die: 7, 8 and 9 are shut'
    """
    choices = rules.dice_choices(open_tiles)
    if 1 not in choices:
        return None
    if rules.one_die is OneDie.HIGH_SHUT:
        high = list(range(HIGH_TILE, rules.tiles + 1))
        why = (f"{join_names([str(t) for t in high])} {'is' if len(high) == 1 else 'are'} "
               "shut") if high else "there are no tiles from 7 up"
    else:
        why = f"the open tiles add up to {tile_sum(open_tiles)}"
    return f"one die: {why}" if choices == (1,) else f"one die allowed: {why}"


def winners_line(match: Match) -> str:
    """Who won, a tie read as one."""
    names = [match.players[s] for s in match.winners]
    if len(names) > 1:
        return f"Tie: {join_names(names)} share the win"
    return f"{subject(names[0], 'wins', 'win')}!"


def narrate(event: Event, match: Match) -> str | None:
    """One event in words (rich markup), or None for events the board already shows."""
    names = [escape(name) for name in match.players]   # a name is text, never markup
    kind = event["type"]
    name = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    several = len(names) > 1
    if kind == "roll-off":
        return f"{subject(name, 'rolls', 'roll')} {format_roll(tuple(event['roll']))} " \
               "for first turn"
    if kind == "first":
        if match.config.format.kind is FormatKind.BATTLE:
            return f"[bold]{subject(name, 'knocks', 'knock')} first[/]: " \
                   f"{match.config.format.goal}"
        return f"[bold]{subject(name, 'plays', 'play')} first[/]" if several else None
    if kind == "round" and several and match.config.format.kind is not FormatKind.BATTLE:
        return f"[bold]— round {event['round']} —[/]"
    if kind == "turn":
        role = event.get("role")
        if not several:
            return None
        return f"[bold]{possessive(name)} {role or 'turn'}[/]"
    if kind == "roll":
        return f"  rolls {format_roll(tuple(event['roll']))}"
    if kind == "dice":
        return f"  chooses {'one die' if event['dice'] == 1 else 'two dice'}"
    if kind in ("shut", "stand"):
        verb = "shut" if kind == "shut" else "stand up"
        return f"  {verb} {format_move(mask_of(event['tiles']))}"
    if kind == "pass":
        return f"  {subject(name, 'has no move and passes', 'have no move and pass')}"
    if kind == "turn-end":
        if event["shut_box"]:
            return f"  [bold green]{subject(name, 'shuts', 'shut')} the box![/] " \
                   f"score {event['score']}"
        owner = "your" if name == YOU else f"{name}'s"
        return f"  no move: {owner} turn ends with {format_move(mask_of(event['open']))} " \
               f"open, score {event['score']}"
    if kind == "eliminated":
        return f"[red]{subject(name, 'is', 'are')} out with {event['total']}[/]"
    if kind == "loser":
        losers = [names[s] for s in event["seats"]]
        verb = "lose" if len(losers) > 1 or losers[0] == YOU else "loses"
        return f"[red]{join_names(losers)} {verb} the game[/]"
    if kind == "winner":
        return f"[bold green]{escape(winners_line(match))}[/]" if several else None
    if kind == "ante":
        return f"everyone antes {format_money(event['stake'])}: pot {format_money(event['pot'])}"
    if kind == "payout":
        return f"{subject(name, 'takes', 'take')} {format_money(event['amount'])}"
    return None


KEYS: dict[str, str] = {
    "3 5": "shut tiles 3 and 5 (also 3,5 or 3+5)",
    "1 / 2": "roll one die or two, when the rules let you choose",
    "?": "show the legal moves and these keys",
    "h": "hint: every legal move ranked by the exact solver",
    "q": "quit and save the game (shutthebox play --resume continues it)",
}
"""The keys of the line mode, as shown by ``?``."""
