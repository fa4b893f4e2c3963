"""The language the game speaks to a reader: every sentence of :mod:`shutthebox.narration`
(and every other sentence a person reads about the game) passes through :func:`_`, which
gives it in the language of the current context.

A server speaks to each reader in their own language at once, so the language is a context
variable (each request and each live feed sets its own with :func:`speaking`), not a
process-wide setting.

>>> _("Your turn")
'Your turn'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

DEFAULT_LANGUAGE = "en"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT_LANGUAGE)


def current_language() -> str:
    """The language of the current context."""
    return _language.get()


def _(message: str) -> str:
    """``message`` (an English sentence, the catalogues' key) in the current language."""
    return message


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block, :func:`_` speaks ``language``."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)
