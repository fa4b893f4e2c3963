"""What is said at the table besides the game itself: the reactions players send each other,
the running tally of a series of games played again, and the news that the next game of the
series is on. Whole sentences, each through :func:`~shutthebox.language._`, as the server
sends them to every board.

>>> reaction_text("cheer", "Ann")
'Ann cheers.'
>>> tally_text(["Ann", "Bo"], [2, 1], 3)
'The series after 3 games: Ann 2, Bo 1.'
>>> ledger_text(["Ann", "Bo"], [150, -150])
'Money won so far: Ann +1.50, Bo -1.50.'
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.language import _
from shutthebox.match import format_money


def _reactions() -> dict[str, tuple[str, str]]:
    """Each reaction's id, its emoji and its sentence (in the reader's language). The emoji
    are faces of Unicode's first emoticons (U+1F600 on), which the most devices draw."""
    return {
        "cheer": ("😄", _("{name} cheers.")),
        "laugh": ("😂", _("{name} laughs.")),
        "wow": ("😮", _("{name} is amazed.")),
        "groan": ("😩", _("{name} groans.")),
        "cool": ("😎", _("{name} keeps cool.")),
        "wink": ("😉", _("{name} winks.")),
    }


REACTIONS: tuple[str, ...] = tuple(_reactions())
"""The reactions a player may send, by id (no free text: nothing to moderate)."""


def reaction_emoji(reaction: str) -> str:
    """The emoji of a reaction of :data:`REACTIONS`."""
    return _reactions()[reaction][0]


def reaction_text(reaction: str, name: str) -> str:
    """The sentence of ``name``'s reaction (one of :data:`REACTIONS`)."""
    return _reactions()[reaction][1].format(name=name)


def reactions_in_words() -> list[dict[str, str]]:
    """Every reaction: its id, emoji and what it says (of a player called "a player"), for
    the page's buttons."""
    return [{"id": key, "emoji": emoji, "text": said.format(name=_("A player"))}
            for key, (emoji, said) in _reactions().items()]


def tally_text(names: Sequence[str], wins: Sequence[float], games: int) -> str:
    """The wins of each player of a series after ``games`` finished games."""
    tally = ", ".join(f"{name} {_count(won)}" for name, won in zip(names, wins, strict=True))
    if games == 1:
        return _("The series after 1 game: {tally}.").format(tally=tally)
    return _("The series after {games} games: {tally}.").format(games=games, tally=tally)


def ledger_text(names: Sequence[str], net: Sequence[int]) -> str:
    """Each player's money won (or lost) over a series, in cents."""
    ledger = ", ".join(f"{name} {'+' if cents > 0 else ''}{format_money(cents)}"
                       for name, cents in zip(names, net, strict=True))
    return _("Money won so far: {ledger}.").format(ledger=ledger)


def rematch_text(name: str, number: int) -> str:
    """The news, on the finished game's board, that ``name`` started the next game."""
    return _("{name} played again: game {number} of the series has started.").format(
        name=name, number=number)


def next_game_text(number: int) -> str:
    """What a finished game that was played again says of the next one."""
    return _("This game was played again: game {number} of the series followed.").format(
        number=number)


def _count(won: float) -> str:
    """Wins as a count: whole, or with a half for a shared win (2.5)."""
    return str(int(won)) if won == int(won) else f"{round(won, 2):g}"
