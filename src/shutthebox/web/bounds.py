"""The bounds of what an action's request may carry, read by the routes' models and by the
fast lane (:mod:`shutthebox.web.api.lane`) alike, so that both accept the same bodies."""

from __future__ import annotations

MAX_EVENT = 10**9
"""The highest event number a request may name."""
MAX_SEATS = 12
"""The most seats at a game."""
MAX_SEAT = MAX_SEATS - 1
"""The highest seat number (seats count from 0)."""
MAX_TILES = 12
"""The most tiles one shut may name (the largest box has 12)."""
MAX_KEY = 128
"""The longest Idempotency-Key header."""
