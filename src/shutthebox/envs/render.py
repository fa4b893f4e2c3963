"""The box as a small RGB image (``render_mode="rgb_array"``), drawn with numpy alone: a
row of tiles, open ones raised and numbered, shut ones dark and lowered, and the dice of the
roll under them with their pips. Frames are the same size for a whole episode, so they make
videos (Gymnasium's ``RecordVideo``).

>>> frame = draw_box(9, 0b111111110, (3, 5))
>>> frame.shape, frame.dtype.name
((72, 240, 3), 'uint8')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from shutthebox.dice import Roll
from shutthebox.tiles import Tiles

Image = npt.NDArray[np.uint8]

TILE_WIDTH, TILE_HEIGHT, GAP, MARGIN = 24, 34, 2, 4
DIE = 22
"""A die's side in pixels."""

FELT = (21, 101, 52)
OPEN_TILE = (240, 226, 190)
SHUT_TILE = (92, 58, 30)
INK = (40, 30, 20)
DIE_FACE = (250, 250, 250)

DIGITS = ("111101101101111", "010110010010111", "111001111100111", "111001111001111",
          "101101111001001", "111100111001111", "111100111101111", "111001001001001",
          "111101111101111", "111101111001111")
"""Each digit in a 3 by 5 grid of pixels, row by row."""

PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
        4: ((0, 0), (0, 2), (2, 0), (2, 2)), 5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
        6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2))}
"""The pips of each face, as (row, column) on a 3 by 3 grid."""


def _digit(image: Image, top: int, left: int, digit: int, scale: int = 2) -> None:
    pattern = np.array([int(bit) for bit in DIGITS[digit]], dtype=bool).reshape(5, 3)
    pixels = np.kron(pattern, np.ones((scale, scale), dtype=bool))
    region = image[top:top + pixels.shape[0], left:left + pixels.shape[1]]
    region[pixels] = INK


def _number(image: Image, top: int, centre: int, number: int) -> None:
    text = str(number)
    width = len(text) * 8 - 2
    for i, char in enumerate(text):
        _digit(image, top, centre - width // 2 + 8 * i, int(char))


def _die(image: Image, top: int, left: int, face: int) -> None:
    image[top:top + DIE, left:left + DIE] = DIE_FACE
    step = DIE // 4
    for row, column in PIPS[face]:
        y, x = top + step * (row + 1) - 1, left + step * (column + 1) - 1
        image[y:y + 3, x:x + 3] = INK


def draw_box(tiles: int, open_tiles: Tiles, roll: Roll | None = None) -> Image:
    """The box with ``open_tiles`` open (a bitmask of tiles 1 to ``tiles``) and the roll's
    dice below it, if any."""
    width = 2 * MARGIN + tiles * (TILE_WIDTH + GAP) - GAP
    height = 2 * MARGIN + TILE_HEIGHT + 4 + DIE + 4
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = FELT
    for tile in range(1, tiles + 1):
        left = MARGIN + (tile - 1) * (TILE_WIDTH + GAP)
        if open_tiles >> (tile - 1) & 1:
            image[MARGIN:MARGIN + TILE_HEIGHT, left:left + TILE_WIDTH] = OPEN_TILE
            _number(image, MARGIN + 12, left + TILE_WIDTH // 2, tile)
        else:
            image[MARGIN + TILE_HEIGHT - 8:MARGIN + TILE_HEIGHT,
                  left:left + TILE_WIDTH] = SHUT_TILE
    top = MARGIN + TILE_HEIGHT + 4
    for i, face in enumerate(roll or ()):
        _die(image, top, MARGIN + i * (DIE + 6), face)
    return image
