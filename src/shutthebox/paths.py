"""Where the project keeps files: one per-user data folder.

The folder is ``$SHUTTHEBOX_HOME`` if set, else ``$XDG_DATA_HOME/shutthebox``, else
``~/.local/share/shutthebox``. Finished terminal games are saved under ``games/`` in it, and
the web app's SQLite database is ``shutthebox.sqlite`` in it.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The per-user data folder (created on first use)."""
    home = os.environ.get("SHUTTHEBOX_HOME")
    if home:
        folder = Path(home)
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        folder = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "shutthebox"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def games_dir() -> Path:
    """The folder of saved game logs (JSON)."""
    folder = data_dir() / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
