"""The review a learner reads on the page: the coach's analysis of a game (accuracy, luck
against skill, mistakes by size and why) and the words of its chart, made here so that the
page only draws and shows what it is sent.

The chart plots each player's value after every roll and decision (``moments``): the chance
to win in percent, or the expected score alone. Its title, its description for screen
readers, its axes' labels and its figures in words come with it, as does a sentence for each
marked decision.

>>> chart = chart_words({"players": [{"player": "Bo", "unit": "points",
...     "measure": "expected score", "start": 10.0, "luck": -1.5, "others_dice": 0.0,
...     "others_mistakes": 0.0, "cost": 0.5, "result": 9.0, "against_others": False}],
...     "moments": [
...     {"index": -1, "kind": "start", "player": None, "values": {}, "size": None},
...     {"index": 4, "kind": "roll", "player": "Bo", "values": {"Bo": 11.5}, "size": None},
...     {"index": 5, "kind": "end", "player": None, "values": {"Bo": 9.0}, "size": None}],
...     "marks": []}, [])
>>> chart["title"], chart["scale"]
('Expected score, move by move', 1.0)
>>> chart["figures"]
['Bo: 11.50 points after the first roll, 9.00 at the end; lowest 9.00, highest 11.50.']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shutthebox.language import N_, _, ngettext

SIZE_WORDS = {"inaccuracy": N_("an inaccuracy"), "mistake": N_("a mistake"),
              "blunder": N_("a blunder")}
"""Each size of mistake in words (said with :func:`_`)."""
_SIZE_NAMES = {"inaccuracy": N_("Inaccuracy"), "mistake": N_("Mistake"),
               "blunder": N_("Blunder")}
_SHAPES = {"inaccuracy": N_("an inaccuracy as a small circle"),
           "mistake": N_("a mistake as a circle"), "blunder": N_("a blunder as a cross")}
_UNITS = {"points": N_("points"), "percentage points": N_("percentage points")}
_FIRST_PLACES = {"start": N_("at the start"), "roll-off": N_("after the roll-off"),
                 "roll": N_("after the first roll")}


def _plain(value: float, by_chance: bool) -> str:
    # rounded first, so that a chance a hair below zero does not read "-0.0 %"
    return (f"{round(value * 100, 1) or 0.0:.1f} %" if by_chance
            else f"{round(value, 2) or 0.0:.2f}")


def _shown(value: float, by_chance: bool) -> str:
    plain = _plain(value, by_chance)
    return plain if by_chance else _("{value} points").format(value=plain)


def _first_place(moment: Mapping[str, Any]) -> str:
    return _(_FIRST_PLACES.get(moment["kind"], N_("after the first move")))


def chart_words(analysis: Mapping[str, Any], decisions: Sequence[Mapping[str, Any]]
                ) -> dict[str, Any]:
    """The chart of an analysis's dictionary in words: ``title``, ``description``,
    ``x_label``, ``y_label``, ``scale`` (100 for a chance, shown in percent, else 1),
    ``percent``, ``figures`` (one sentence a player: where their value started and ended,
    its lowest and highest) and ``marks`` (one sentence for each marked decision, by move
    number as the review's table counts them, with why the best was better when it was
    costly)."""
    players = analysis["players"]
    by_chance = bool(players) and players[0]["unit"] == "chance"
    measure = _("Chance to win") if by_chance else _("Expected score")
    moments = analysis["moments"]
    figures = []
    for player in players:
        name = player["player"]
        known = [m for m in moments if name in m["values"]]
        if not known:
            continue
        values = [m["values"][name] for m in known]
        figures.append((_("{name}: {first} {when}, {last} at the end; lowest {lowest}, "
                          "highest {highest}.") if known[-1]["kind"] == "end" else
                        _("{name}: {first} {when}, {last} now; lowest {lowest}, highest "
                          "{highest}.")).format(
            name=name, first=_shown(values[0], by_chance), when=_first_place(known[0]),
            last=_plain(values[-1], by_chance), lowest=_plain(min(values), by_chance),
            highest=_plain(max(values), by_chance)))
    move_of = {d["index"]: number for number, d in enumerate(decisions, 1) if "index" in d}
    marks = []
    for mark in analysis["marks"]:
        sentence = _("Move {move}, {player}: {size}, costing {cost} {unit}.").format(
            move=move_of.get(mark["index"], "?"), player=mark["player"],
            size=_(SIZE_WORDS.get(mark["size"], mark["size"])), cost=f"{mark['cost']:.2f}",
            unit=_(_UNITS.get(mark["unit"], mark["unit"])))
        if mark.get("why"):
            sentence += f" {mark['why']}"
        marks.append({"index": mark["index"], "move": move_of.get(mark["index"]),
                      "player": mark["player"], "size": mark["size"], "text": sentence})
    sizes = _(", ").join(_(_SHAPES[size]) for size in ("inaccuracy", "mistake", "blunder"))
    description = (_("{measure} of each player after every roll and decision of the game, "
                     "from 0 to 100 %; the decisions that cost something are marked on the "
                     "mover's line: {sizes}. The figures follow in words.") if by_chance else
                   _("{measure} of each player after every roll and decision of the game, "
                     "in points; the decisions that cost something are marked on the "
                     "mover's line: {sizes}. The figures follow in words.")
                   ).format(measure=measure, sizes=sizes)
    return {"title": _("{measure}, move by move").format(measure=measure),
            "description": description,
            "x_label": _("each roll and decision, in order"),
            "y_label": _("chance to win (%)") if by_chance else _("expected score"),
            "scale": 100.0 if by_chance else 1.0, "percent": by_chance,
            "figures": figures, "marks": marks,
            "legend": {size: _(name) for size, name in _SIZE_NAMES.items()},
            "table": table_words(by_chance), "luck": luck_words(players)}


def luck_words(players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The words of the review's table of where each player's result came from (the coach's
    terms, :class:`~shutthebox.coach.PlayerAnalysis`): its ``caption``, its ``columns`` (each
    a ``key`` and its ``label``: the start, luck from the player's own dice, the others' dice
    and mistakes when the others' turns move the value, the player's own mistakes, the
    result) and one row of figures per player, each term signed (above 0: good for them).

    >>> words = luck_words([{"player": "Al", "unit": "chance", "start": 0.5, "luck": 0.04,
    ...     "others_dice": -0.03, "others_mistakes": 0.5, "cost": 0.01, "result": 1.0,
    ...     "against_others": True}])
    >>> print("|".join(column["label"] for column in words["columns"]))
    Player|Start|Luck (own dice)|The others' dice|The others' mistakes|Own mistakes|Result
    >>> print(" | ".join(words["rows"][0].values()))
    Al | 50.0 % | +4.0 | -3.0 | +50.0 | -1.0 | 100.0 %
    """
    from shutthebox.coach.analysis import signed_term

    by_chance = bool(players) and players[0]["unit"] == "chance"
    against = any(p["against_others"] for p in players)

    def signed(value: float) -> str:
        return signed_term(value, "chance" if by_chance else "points")

    labels = {"player": _("Player"), "start": _("Start"), "luck": _("Luck (own dice)"),
              "others_dice": _("The others' dice"),
              "others_mistakes": _("The others' mistakes"), "mistakes": _("Own mistakes"),
              "result": _("Result")}
    keys = [k for k in labels if against or k not in ("others_dice", "others_mistakes")]
    rows = [{"player": p["player"], "start": _plain(p["start"], by_chance),
             "luck": signed(p["luck"]),
             "others_dice": signed(p["others_dice"]),
             "others_mistakes": signed(p["others_mistakes"]), "mistakes": signed(-p["cost"]),
             "result": _plain(p["result"], by_chance)} for p in players]
    caption = (_("Where each result came from, in percentage points of the chance to win: "
                 "luck (the player's own dice), the others' dice, the others' mistakes and "
                 "the player's own mistakes add up to what the player gained from the start "
                 "to the result (above 0 is good for them).") if against else
               _("Where each result came from, in points of expected score: luck (the "
                 "player's own dice) and the player's own mistakes add up to what the player "
                 "gained from the start to the result (above 0 is good for them).")
               if not by_chance else
               _("Where each result came from, in percentage points: luck (the player's own "
                 "dice) and the player's own mistakes add up to what the player gained from "
                 "the start to the result (above 0 is good for them)."))
    return {"caption": caption, "columns": [{"key": k, "label": labels[k]} for k in keys],
            "rows": [{k: row[k] for k in keys} for row in rows]}


def table_words(by_chance: bool) -> dict[str, str]:
    """The words of the review's table of decisions: its ``caption`` (in which unit the
    costs are), ``empty`` (a game without a decision yet), ``dice_choice`` (the roll column
    of a choice of dice) and ``best`` (the cost of a best move).

    >>> table_words(False)["caption"].split(";")[0], table_words(True)["empty"]
    ('Every decision', 'No decisions were made in this game yet.')
    """
    caption = (_("Every decision; costs are in percentage points of the chance to win "
                 "against perfect play. Costly moves are marked ✗.") if by_chance else
               _("Every decision; costs are in points of expected score against perfect play. "
                 "Costly moves are marked ✗."))
    return {"caption": caption, "empty": _("No decisions were made in this game yet."),
            "dice_choice": _("dice choice"), "best": _("best")}


def accuracy_over(logs: Sequence[Mapping[str, Any]], name: str,
                  seats: Sequence[int] | None = None) -> dict[str, Any] | None:
    """``name``'s accuracy in each of these finished games (the solver worker's work: the
    coach's analysis of each, by expected score for want of a match table the server has
    not worked out), oldest first: ``history``, ``average``, ``games``, and ``text`` and
    ``title`` (the words of its line); None when no game of theirs had a choice to make.
    ``seats``: the player's seat in each game (a game's log keeps the name played under,
    which a rename changes since); without them, the seats named ``name``.

    :raises LogError: a log does not replay.
    """
    from shutthebox.coach import analyse
    from shutthebox.web.solving.tables import table_missing

    history = []
    for index, log in enumerate(logs):
        seats_played = [p for p in analyse(log, match_tables=table_missing(log) is None).players
                        if (p.player == name if seats is None else p.seat == seats[index])
                        and p.decisions]
        if seats_played:
            history.append(sum(p.accuracy for p in seats_played) / len(seats_played))
    if not history:
        return None
    average = sum(history) / len(history)
    count = len(history)
    return {"history": history, "average": average, "games": count,
            "title": _("{name}'s accuracy, game by game").format(name=name),
            "text": ngettext(
                "{name}'s accuracy over the last {count} game with a choice to make: "
                "{average} on average (100 is perfect play), {last} in the last; in order: "
                "{history}.",
                "{name}'s accuracy over the last {count} games with a choice to make: "
                "{average} on average (100 is perfect play), {last} in the last; in order: "
                "{history}.", count).format(
                name=name, count=count, average=f"{average:.1f}", last=f"{history[-1]:.1f}",
                history=_(", ").join(f"{value:.0f}" for value in history))}
