"""Pictures of score distributions and win rates, written as PNG or SVG with matplotlib."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shutthebox.errors import ShutTheBoxError

FORMATS = (".png", ".svg")


class PlotError(ShutTheBoxError):
    """A plot file that cannot be written."""


def check_plot_path(path: Path) -> Path:
    """The path, if a plot can be written there: its folder is created and the file opened
    for writing now, so a bad path fails before any long work.

    >>> check_plot_path(Path("/proc/no/x.png"))
    Traceback (most recent call last):
    ...
    shutthebox.plots.PlotError: cannot write a plot to '/proc/no/x.png': No such file or directory
    """
    if path.suffix.lower() not in FORMATS:
        raise PlotError(f"cannot write a plot to {str(path)!r}: use a .png or .svg file")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab"):
            pass
    except OSError as error:
        raise PlotError(f"cannot write a plot to {str(path)!r}: "
                        f"{error.strerror or error}") from None
    if not existed:
        path.unlink()
    return path


def _save(figure: Any, path: Path) -> None:
    try:
        figure.savefig(path)
    except OSError as error:
        raise PlotError(f"cannot write a plot to {str(path)!r}: "
                        f"{error.strerror or error}") from None


def plot_distribution(distribution: Mapping[int, float], path: Path, title: str,
                      exact: Mapping[int, float] | None = None) -> Path:
    """A bar chart of a score distribution, with an exact one drawn over it if given."""
    path = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4.5))
    scores = sorted(distribution)
    axes.bar([str(s) for s in scores], [distribution[s] for s in scores], color="#b5651d",
             label="simulated" if exact is not None else "probability")
    if exact is not None:
        exact_scores = [s for s in sorted(exact) if s in distribution or exact[s] > 0]
        axes.plot([str(s) for s in exact_scores], [exact[s] for s in exact_scores], "o",
                  color="#1f3b4d", label="exact")
        axes.legend()
    axes.set_xlabel("score")
    axes.set_ylabel("probability")
    axes.set_title(title)
    if len(scores) > 30:
        for label in axes.get_xticklabels()[1::2]:
            label.set_visible(False)
    figure.tight_layout()
    _save(figure, path)
    plt.close(figure)
    return path


def plot_win_rates(names: Sequence[str], rates: Sequence[float],
                   errors: Sequence[float], path: Path, title: str) -> Path:
    """A bar chart of win rates with their confidence intervals."""
    path = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.bar(list(names), list(rates), yerr=list(errors), capsize=6, color="#b5651d")
    axes.set_ylabel("win rate")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    figure.tight_layout()
    _save(figure, path)
    plt.close(figure)
    return path
