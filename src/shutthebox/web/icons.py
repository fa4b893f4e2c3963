"""The page's app icons (the PNGs a phone puts on its home screen), drawn with matplotlib
from the same design as ``static/icon.svg``: a wooden box with four tiles, one shut.

The PNGs are committed under ``static/icons``; run ``python -m shutthebox.web.icons`` to
draw them again after changing the design.
"""

from __future__ import annotations

from pathlib import Path

ICONS = Path(__file__).parent / "static" / "icons"
WOOD = "#6b3f1d"
TILE = "#e8c07d"
SHUT = "#2b1a0e"
SIZES = (192, 512)
TILE_XS = (8, 21, 34, 47)
"""The tiles' left edges on the 64-unit grid of icon.svg (the second one shut)."""


def draw(size: int, maskable: bool, path: Path) -> None:
    """Write a ``size``-pixel square PNG of the icon to ``path``: with rounded corners on a
    clear ground, or, ``maskable``, on a full square with the tiles inside the middle 80%
    (the part every launcher's mask keeps)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.patches import FancyBboxPatch, Rectangle

    figure = pyplot.figure(figsize=(size / 100, size / 100), dpi=100)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, 64)
    axes.set_ylim(64, 0)
    axes.set_axis_off()
    figure.patch.set_alpha(0.0)
    if maskable:
        axes.add_patch(Rectangle((0, 0), 64, 64, color=WOOD))
    else:
        axes.add_patch(FancyBboxPatch((0, 0), 64, 64, boxstyle="round,pad=0,rounding_size=10",
                                      color=WOOD))
    scale = 0.7 if maskable else 1.0
    for i, x in enumerate(TILE_XS):
        left = 32 + (x - 32) * scale
        axes.add_patch(FancyBboxPatch((left, 32 - 18 * scale), 10 * scale, 36 * scale,
                                      boxstyle=f"round,pad=0,rounding_size={2 * scale}",
                                      color=SHUT if i == 1 else TILE))
    figure.savefig(path, dpi=100, transparent=not maskable)
    pyplot.close(figure)


def main() -> None:
    ICONS.mkdir(exist_ok=True)
    for size in SIZES:
        draw(size, False, ICONS / f"icon-{size}.png")
    draw(512, True, ICONS / "maskable-512.png")


if __name__ == "__main__":
    main()
