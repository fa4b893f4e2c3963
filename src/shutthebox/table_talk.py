"""What is said at the table besides the game itself: the reactions players send each other,
the running tally of a series of games played again, what a round of a real table's score
sheet decided, and the news that the next game of the
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

from shutthebox.language import N_, _
from shutthebox.match import SheetGame, SheetRound, format_money
from shutthebox.names import about, name_of
from shutthebox.phrases import join_words


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


def sheet_lines(game: SheetGame, entered: SheetRound) -> list[str]:
    """What a round of a real table's score sheet decided, in the words a game on the screen
    says them: a shut box that won at once, the players out, and once it ends the game, the
    loser, the winners and what each took of the pot.

    >>> from shutthebox.match import GameFormat, MatchConfig, ScoreSheet
    >>> from shutthebox.rules import Rules
    >>> sheet = ScoreSheet(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    >>> entered = sheet.enter([7, 0])
    >>> sheet_lines(sheet.games[-1], entered)
    ['Bo shuts the box!', 'Bo wins!']
    """
    names = game.players
    lines = []
    if entered.shut_box is not None:
        lines.append(about(names[entered.shut_box], N_("You shut the box!"),
                           N_("{name} shuts the box!")))
    for seat in entered.out:
        lines.append(about(names[seat], N_("You are out with {total}"),
                           N_("{name} is out with {total}"), total=entered.totals[seat]))
    if not game.is_over or entered is not game.rounds[-1]:
        return lines
    if len(game.losers) > 1:
        lines.append(_("{names} lose the game").format(
            names=join_words([name_of(names[s]) for s in game.losers])))
    elif game.losers:
        lines.append(about(names[game.losers[0]], N_("You lose the game"),
                           N_("{name} loses the game")))
    winners = [names[s] for s in game.winners]
    if len(winners) > 1:
        lines.append(_("Tie: {names} share the win").format(
            names=join_words([name_of(n) for n in winners])))
    elif len(names) > 1:
        lines.append(about(winners[0], N_("You win!"), N_("{name} wins!")))
    lines.extend(about(names[seat], N_("You take {amount}"), N_("{name} takes {amount}"),
                       amount=format_money(amount))
                 for seat, amount in sorted(game.payouts.items()) if amount)
    return lines
