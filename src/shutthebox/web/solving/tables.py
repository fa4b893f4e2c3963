"""Whether exact play may read a game's two-player match table on this server now, and what
an answer says while it may not.

A table cheap enough (:data:`INLINE_SECONDS`) is worked out where it is needed, even by
interactive work; a dearer one only in the background (see :mod:`shutthebox.web.solving.work`),
and until it is there the answers that need it say they are approximate
(:func:`approximate_note`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shutthebox.language import _
from shutthebox.match import GameFormat
from shutthebox.rules import Rules

INLINE_SECONDS = 0.5
"""A match table estimated to take less than this is worked out where it is needed, even
by interactive work; a dearer one only in the background."""


def table_ready(rules: Rules, fmt: GameFormat) -> bool:
    """Whether exact play may read the match table now: it is kept (in memory or on disk),
    or it is cheap enough to work out where it is needed (:data:`INLINE_SECONDS`)."""
    from shutthebox.solver.cost import table_seconds
    from shutthebox.solver.matchplay import is_cached

    return table_seconds(rules, fmt) <= INLINE_SECONDS or is_cached(rules, fmt)


def table_missing(log: Mapping[str, Any]) -> str | None:
    """The format of the two-player match table that exact play of the logged game needs,
    when it is not :func:`table_ready`; else None."""
    from shutthebox.solver.matchplay import table_needed

    fmt = table_needed(log["format"], len(log["players"]))
    if fmt is None or table_ready(Rules.from_dict(dict(log["rules"])), fmt):
        return None
    return str(fmt)


def approximate_note(fmt: str) -> str:
    """What an answer ranked by expected score for want of the match table says.

    >>> approximate_note("loser-at:500")[:58]
    'Ranked by expected score for now: the exact tables of lose'
    """
    return _("Ranked by expected score for now: the exact tables of {format} are not worked "
             "out on this server yet.").format(format=fmt)
