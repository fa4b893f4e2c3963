"""The API's routes, one router per area, and the page's (see
:func:`shutthebox.web.app.create_app`, which includes them)."""

from fastapi import APIRouter

from shutthebox.web.api.routes import (
    actions,
    admin,
    advice,
    coaching,
    daily,
    games,
    invites,
    live,
    pages,
    players,
    reactions,
    series,
    sheets,
    table,
    words,
)

api_router = APIRouter(prefix="/api")
# (the players' moves first: the routes a request is matched against in turn)
for area in (actions, games, live, invites, coaching, players, daily, reactions, series,
             words, table, advice, sheets, admin):
    api_router.include_router(area.router)

__all__ = ["api_router", "pages"]
