"""The language each request is answered in: its ``lang`` query parameter, else its ``lang``
cookie (the page's language menu sets it), else its ``Accept-Language`` header, else
English. The app answers every request inside :func:`~shutthebox.language.speaking` it, so
every sentence of the answer (and of a live feed's messages) is in the reader's language.

>>> request_language({"query_string": b"lang=de", "headers": []})
'de'
>>> request_language({"query_string": b"", "headers": [(b"cookie", b"a=1; lang=ar"),
...                                                    (b"accept-language", b"fr")]})
'ar'
>>> request_language({"query_string": b"", "headers": [(b"accept-language", b"es-MX,en")]})
'es'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from shutthebox.language import DEFAULT_LANGUAGE, LANGUAGES, negotiate

COOKIE = "lang"
"""The cookie holding the language chosen on the page."""


def request_language(scope: Mapping[str, Any]) -> str:
    """The language to answer a request (an ASGI scope) in."""
    query = scope.get("query_string") or b""
    if b"lang=" in query:
        for pair in query.split(b"&"):
            name, _eq, value = pair.partition(b"=")
            if name == b"lang" and value.decode("latin-1") in LANGUAGES:
                return value.decode("latin-1")
    accepted = None
    for name, value in scope.get("headers") or ():
        if name == b"cookie" and b"lang=" in value:
            chosen = _cookie_language(value)
            if chosen is not None:
                return chosen
        elif name == b"accept-language":
            accepted = value
    return DEFAULT_LANGUAGE if accepted is None else _negotiated(accepted)


def _cookie_language(cookie: bytes) -> str | None:
    """The language of a ``Cookie`` header's ``lang``, if it names one the game speaks."""
    for part in cookie.split(b";"):
        name, _eq, value = part.strip().partition(b"=")
        if name == COOKIE.encode():
            chosen = value.strip(b'" ').decode("latin-1")
            return chosen if chosen in LANGUAGES else None
    return None


@functools.lru_cache(maxsize=512)
def _negotiated(accepted: bytes) -> str:
    """The language for an ``Accept-Language`` header; browsers send few different ones, so
    each is read once."""
    return negotiate(accepted[:2048].decode("latin-1"))
