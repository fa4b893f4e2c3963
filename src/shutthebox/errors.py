"""Errors raised by the package.

Every error is a :class:`ValueError` subclass whose message quotes the input, so a
caller can catch broadly (``ValueError``) or exactly (``IllegalMoveError``).
"""

from __future__ import annotations


class ShutTheBoxError(ValueError):
    """Base class of every error this package raises for bad input."""


class RulesError(ShutTheBoxError):
    """A rule value is out of range, or two rules cannot be combined."""


class UnknownPresetError(RulesError):
    """A preset name that does not exist."""


class TilesError(ShutTheBoxError):
    """A tile list that cannot be read or names tiles outside the box."""


class IllegalMoveError(ShutTheBoxError):
    """A move or dice choice that the rules do not allow in this position."""


class FormatError(ShutTheBoxError):
    """A game format that cannot be read or does not fit the rules or players."""


class LogError(ShutTheBoxError):
    """A saved game log that cannot be read or does not replay."""


class PlayerNameError(ShutTheBoxError):
    """A player name that is empty, too long, or holds control characters."""
