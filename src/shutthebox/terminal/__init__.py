"""The terminal game: the full-screen Textual app (``app.py`` and its ``app.tcss``), the line
mode for pipes and screen readers (``game.py``, drawing with rich in ``board.py``), the words
both say (``words.py``), the hint (``hints.py``), the session at the table (``session.py``) and
the saved games (``saved.py``). None of them holds game logic: they drive
:class:`shutthebox.match.Match` and show what it returns."""
