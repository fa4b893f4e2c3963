"""A game's first legal action, as a client of the API makes it: shared by the web tests
and the floors check (``.ci/floors.py``), which runs where only the package at its lowest
dependencies is installed, so this module needs nothing but Python."""

from __future__ import annotations

from typing import Any


def first_legal(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The path and body of the first legal action for the pending seat."""
    pending = state["pending"]
    base = f"/api/games/{state['id']}"
    event = state["event_count"]
    if pending["kind"] == "roll":
        return f"{base}/roll", {"event": event}
    if pending["kind"] == "choose-dice":
        return f"{base}/dice", {"dice": 2, "event": event}
    return f"{base}/shut", {"tiles": pending["legal"][0], "event": event}
