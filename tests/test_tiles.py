import pytest
from hypothesis import given
from hypothesis import strategies as st

from shutthebox.errors import TilesError
from shutthebox.tiles import format_tiles, mask_of, parse_tiles, tile_sum, tiles_of


@given(st.sets(st.integers(1, 12)))
def test_mask_round_trips(tiles: set[int]) -> None:
    mask = mask_of(tiles)
    assert tiles_of(mask) == tuple(sorted(tiles))
    assert tile_sum(mask) == sum(tiles)


def test_format_and_parse() -> None:
    assert format_tiles(mask_of([1, 2, 7])) == "1 2 7"
    assert format_tiles(0) == "-"
    assert parse_tiles("3 5") == (3, 5)
    assert parse_tiles("3,5") == (3, 5)


@pytest.mark.parametrize("text", ["", "a", "3 x"])
def test_parse_rejects_non_numbers(text: str) -> None:
    with pytest.raises(TilesError, match=r"no tiles|is not a tile number"):
        parse_tiles(text)


def test_mask_rejects_bad_tiles() -> None:
    with pytest.raises(TilesError, match="tile 13"):
        mask_of([13])
    with pytest.raises(TilesError, match="twice"):
        mask_of([3, 3])
