"""A game's live feed: the WebSocket every watcher of a game opens (see
:class:`shutthebox.web.live.feeds.LiveFeed`, which speaks on it)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

router = APIRouter()


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str) -> None:
    """Each stored batch of the game's events, and who is at its table, as they happen."""
    await websocket.app.state.live(websocket.scope, websocket.receive, websocket.send,
                                   game_id)
