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

API_AREAS: tuple[APIRouter, ...] = tuple(area.router for area in (
    actions, games, live, invites, coaching, players, daily, reactions, series, words, table,
    advice, sheets, admin))
"""The API's routers, each included under ``/api``, the players' moves first: a request is
matched against them in turn. (Included into the app one by one, not through one ``/api``
router: FastAPI walks each level of included routers at every request.)"""

__all__ = ["API_AREAS", "pages"]
