"""The page's scripts keep no words of the game of their own: the server sends them."""

from __future__ import annotations

import re
from pathlib import Path

from shutthebox.match import GameFormat
from shutthebox.narration import format_text


def test_the_page_keeps_no_words_of_the_game_of_its_own() -> None:
    """No script of the page holds the rules, formats or events in words: the server sends
    them (the page keeps only the words of the page itself: buttons, keys, forms)."""
    from shutthebox.narration import page_sentences
    from shutthebox.rules import PRESETS

    static = Path(__file__).resolve().parents[3] / "src/shutthebox/web/static"
    assert not (static / "js/words.js").exists()
    text = "\n".join(p.read_text() for p in [*static.glob("js/**/*.js"), static / "index.html"])
    # what a reader can be shown, not what the code says to its readers
    text = re.sub(r"/\*.*?\*/|<!--.*?-->|(?:^|\s)//[^\n]*", "", text, flags=re.S)
    meanings = {meaning for p in PRESETS.values() for name, meaning in p.rules.describe()
                if name not in ("tiles", "max tiles per roll")}  # numbers the form checks
    formats = {format_text(GameFormat.parse(f), r) for f in
               ("solo", "single", "rounds:3", "elimination", "loser-at", "race", "battle")
               for r in (None, 2)}
    fragments = {"or less", "playing perfectly", "two dice always", "lowest wins", "Race to",
                 "Loser at", "share the win", "choosing one die", "nothing is rolled",
                 "has no move", "plays first", "puts in", "takes seat",
                 # the sentences the page completes, the statistics, the review's table and
                 # the last screen: the server's too
                 "Game over", "Round ${", "Picked", "adds up to", "The pot was",
                 "personal best", "Personal best", "of your turns", "under perfect play",
                 "Score of a turn", "Share of turns", "Scores in order", "dice choice",
                 "Costly moves", "No decisions", "knocks down", "stands up", "can knock",
                 "can stand", "Chance to shut", "Expected score", "Loses (", "lower is better",
                 # a seat's invite, a missing game, a game's status, a rule set's name and
                 # the bounds of the rules (the server refuses and says why)
                 "Invite a friend", "Waiting for ${", "to type on the start page",
                 "Game not found", "waiting for players",
                 "not finished", '"finished"', " tiles)", "must be a whole number"}
    # every template the page fills in, in pieces between its placeholders
    pieces = {piece.strip(" .:,") for sentence in page_sentences().values()
              for piece in re.split(r"\{\w+\}", sentence)}
    for words in sorted(meanings | formats | fragments | {p for p in pieces if len(p) > 8}):
        assert words not in text, words
