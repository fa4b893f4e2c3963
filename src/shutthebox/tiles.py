"""The open tiles as one ``int`` bitmask: bit ``i - 1`` is tile ``i``.

>>> t = mask_of([1, 2, 7])
>>> t
67
>>> tiles_of(t)
(1, 2, 7)
>>> tile_sum(t)
10
>>> format_tiles(t)
'1 2 7'
>>> parse_tiles("3,5")
(3, 5)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from shutthebox.errors import TilesError
from shutthebox.language import _

Tiles = int
"""A set of tiles as a bitmask: bit ``i - 1`` set means tile ``i`` is in the set."""

MAX_TILES = 12


def full_box(n: int) -> Tiles:
    """All tiles ``1..n`` open.

    >>> tiles_of(full_box(4))
    (1, 2, 3, 4)
    """
    return (1 << n) - 1


def tile_bit(tile: int) -> Tiles:
    """The mask holding one tile."""
    return 1 << (tile - 1)


def mask_of(tiles: Iterable[int]) -> Tiles:
    """The mask of some tile numbers (duplicates are rejected).

    >>> mask_of([3, 5])
    20
    """
    mask = 0
    for tile in tiles:
        if not 1 <= tile <= MAX_TILES:
            raise TilesError(_("tile {tile} is not a tile: tiles go from 1 to "
                               "{MAX_TILES}").format(tile=tile, MAX_TILES=MAX_TILES))
        bit = tile_bit(tile)
        if mask & bit:
            raise TilesError(_("tile {tile} is named twice").format(tile=tile))
        mask |= bit
    return mask


@cache
def tiles_of(mask: Tiles) -> tuple[int, ...]:
    """The tile numbers in a mask, lowest first."""
    return tuple(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)


@cache
def tile_sum(mask: Tiles) -> int:
    """The sum of the tile numbers in a mask."""
    return sum(tiles_of(mask))


def tile_count(mask: Tiles) -> int:
    """How many tiles a mask holds."""
    return mask.bit_count()


def format_tiles(mask: Tiles) -> str:
    """Tiles as people write them: ``'1 2 7'``; the empty set is ``'-'``."""
    return " ".join(map(str, tiles_of(mask))) or "-"


_SEPARATORS = re.compile(r"[\s,;+]+")


def parse_tiles(text: str) -> tuple[int, ...]:
    """Read tile numbers written as ``'3 5'``, ``'3,5'`` or ``'3+5'``.

    >>> parse_tiles(" 7 , 1 ")
    (7, 1)
    """
    words = [w for w in _SEPARATORS.split(text.strip()) if w]
    if not words:
        raise TilesError(_("no tiles in {text!r}").format(text=text))
    numbers: list[int] = []
    for word in words:
        if not word.isdigit():
            raise TilesError(_("{word!r} in {text!r} is not a tile number").format(
                               word=word, text=text))
        numbers.append(int(word))
    return tuple(numbers)
