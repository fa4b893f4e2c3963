"""Pictures of score distributions and win rates, written as PNG or SVG with matplotlib."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.paths import reason

FORMATS = (".png", ".svg")


class PlotError(ShutTheBoxError):
    """A plot file that cannot be written."""


def check_plot_path(path: Path) -> Path:
    """The path, if a plot can be written there: its folder is created and the file opened
    for writing now, so a bad path fails before any long work.

    >>> check_plot_path(Path("/proc/no/x.png"))
    Traceback (most recent call last):
    ...
    shutthebox.plots.PlotError: cannot write a plot to '/proc/no/x.png': no such file or folder
    """
    if path.suffix.lower() not in FORMATS:
        raise PlotError(_("cannot write a plot to {path!r}: use a .png or .svg file").format(
            path=str(path)))
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab"):
            pass
    except OSError as error:
        raise PlotError(_("cannot write a plot to {path!r}: {why}").format(
            path=str(path), why=reason(error))) from None
    if not existed:
        path.unlink()
    return path


def _save(figure: Any, path: Path) -> None:
    try:
        figure.savefig(path)
    except OSError as error:
        raise PlotError(_("cannot write a plot to {path!r}: {why}").format(
            path=str(path), why=reason(error))) from None


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
             label=_("simulated") if exact is not None else _("probability"))
    if exact is not None:
        exact_scores = [s for s in sorted(exact) if s in distribution or exact[s] > 0]
        axes.plot([str(s) for s in exact_scores], [exact[s] for s in exact_scores], "o",
                  color="#1f3b4d", label=_("exact"))
        axes.legend()
    axes.set_xlabel(_("score"))
    axes.set_ylabel(_("probability"))
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
    axes.set_ylabel(_("win rate"))
    axes.set_ylim(0, 1)
    axes.set_title(title)
    figure.tight_layout()
    _save(figure, path)
    plt.close(figure)
    return path


def moment_places(moments: Sequence[Mapping[str, Any]]) -> list[float]:
    """Where each moment of an analysis stands on the chart: a decision at its number (as
    the review's table and JSON number it), the start at 0, and the rolls (and the end)
    spread evenly between the decision before them and the next.

    >>> moment_places([{"kind": "start", "number": None}, {"kind": "roll", "number": None},
    ...                {"kind": "decision", "number": 1}, {"kind": "roll", "number": None},
    ...                {"kind": "roll", "number": None}, {"kind": "decision", "number": 2},
    ...                {"kind": "end", "number": None}])
    [0.0, 0.5, 1.0, 1.3333333333333333, 1.6666666666666665, 2.0, 2.5]
    """
    places: list[float] = []
    between: list[int] = []   # the moments since the last decision, to be spread

    def spread(last: float) -> None:
        for j, at in enumerate(between, 1):
            places[at] = last + j / (len(between) + 1)
        between.clear()

    last = 0.0
    for at, moment in enumerate(moments):
        if moment["kind"] == "decision" and moment.get("number") is not None:
            spread(last)
            last = float(moment["number"])
            places.append(last)
        elif moment["kind"] == "start":
            places.append(0.0)
        else:
            places.append(last)
            between.append(at)
    spread(last)
    return places


SIZE_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""The sizes of a costly decision in the reader's words."""

SIZE_MARKERS = {"inaccuracy": ("o", "#d4a017"), "mistake": ("X", "#e07b00"),
                "blunder": ("X", "#c0392b")}
"""How a decision of each size is marked on a review's chart: the marker and its colour."""


def plot_review(analysis: Mapping[str, Any], path: Path, title: str) -> Path:
    """Each player's value move by move, from an analysis's dictionary (the coach's
    ``Analysis.to_dict()``): the chance to win in percent, or the expected score, with each
    inaccuracy, mistake and blunder marked where it was played.

    :raises PlotError: the file cannot be written.
    """
    path = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from shutthebox.names import name_of

    players = analysis["players"]
    by_chance = bool(players) and players[0]["unit"] == "chance"
    scale = 100.0 if by_chance else 1.0
    moments = analysis["moments"]
    places = moment_places(moments)
    figure, axes = plt.subplots(figsize=(10, 4.5))
    for player in players:
        name = player["player"]
        points = [(x, m["values"][name] * scale) for x, m in zip(places, moments, strict=True)
                  if name in m["values"]]
        if not points:
            continue
        line = axes.plot([x for x, _y in points], [y for _x, y in points], "-",
                         linewidth=1.6, label=name_of(name))[0]
        for size, (marker, colour) in SIZE_MARKERS.items():
            marked = [(x, m["values"][name] * scale) for x, m in zip(places, moments,
                                                                      strict=True)
                      if m["size"] == size and m["player"] == name and name in m["values"]]
            if marked:
                axes.plot([x for x, _y in marked], [y for _x, y in marked], marker,
                          color=colour, markeredgecolor=line.get_color(), markersize=9,
                          linestyle="none")
    for size, (marker, colour) in SIZE_MARKERS.items():   # one legend entry per size
        axes.plot([], [], marker, color=colour, linestyle="none", label=_(SIZE_WORDS[size]))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(_("decision (the rolls between them are drawn between the numbers)"))
    axes.set_ylabel(_("chance to win (%)") if by_chance else _(players[0]["measure"])
                    if players else _("value"))
    if by_chance:
        axes.set_ylim(-2, 102)
    axes.set_title(title)
    axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    _save(figure, path)
    plt.close(figure)
    return path
