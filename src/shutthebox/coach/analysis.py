"""How a game went, for a learner: each player's accuracy, mistakes by size, luck against
skill, the value move by move (for a chart) and why each costly move was worse.

**The value.** Each player's value is what the optimal player aims at (:func:`aim`): the
chance to win the match when others play (:data:`CHANCE_TO_WIN`), else the expected score of
the turn under way (or the objective asked for). It is known before and after every roll and
decision of the player's own turns; with two players, each one's chance to win is also one
minus the mover's.

**Luck against skill.** Luck is what the game did that the player did not choose: each of
their rolls moved their value from before it (the average over every roll the dice could
give) to after it (the best move's value for the roll they got); the roll-off and everything
done in the others' turns move it too (:attr:`PlayerAnalysis.others`). Skill is what the
decisions cost (:attr:`PlayerAnalysis.cost`, always 0 or more). For each player, exactly::

    result = start + sense * (luck - cost)

where ``sense`` is -1 when the value is an expected score and a lower score wins (the default
scoring: good luck lowers it), else +1; luck above 0 is always good for the player. By a
chance to win, ``start`` is the chance at the start and ``result`` the share of the win (1,
a tie's 1/k, or 0); by an expected score, ``start`` adds up the value at the start of each of
the player's turns and ``result`` the score of each.

**Accuracy.** Each decision with more than one legal choice scores ``100 * 2 ** -(cost /
threshold)``, where ``threshold`` is :data:`~shutthebox.coach.COSTLY` in the cost's unit (half
a point of expected score, one percentage point of a chance): 100 for the best choice, 50 for
a decision that costs exactly a mistake's threshold. The accuracy is the average over those
decisions, so the scale is the same in every format: a cost counts by how many mistake
thresholds it makes, and the threshold says how much of each unit is worth a mistake.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from shutthebox.coach.aims import CHANCE_TO_WIN, EXPECTED_SCORE, Aim, aim
from shutthebox.coach.explain import explain
from shutthebox.coach.review import COSTLY, Review, ReviewedDecision, judge
from shutthebox.dice import Roll, roll_outcomes
from shutthebox.formats import FormatKind
from shutthebox.language import N_, _, ngettext
from shutthebox.match import INPUT_EVENTS, Match, MatchConfig, replay
from shutthebox.names import YOU, about, name_of
from shutthebox.rules import Rules
from shutthebox.tiles import mask_of
from shutthebox.turn import TurnState

SIZES = ("inaccuracy", "mistake", "blunder")
"""The sizes of a costly-or-nearly decision, smallest first."""

SIZE_FACTORS = {"inaccuracy": 0.4, "mistake": 1.0, "blunder": 4.0}
"""From which cost a decision is of each size, as a multiple of :data:`COSTLY` in its unit:
an inaccuracy from 0.2 points of expected score (0.4 percentage points of a chance), a
mistake from 0.5 (1.0: the coach's threshold of a costly decision), a blunder from 2 (4)."""


def size_threshold(size: str, shown_unit: str) -> float:
    """From which cost, in ``shown_unit`` (``points`` or ``percentage points``), a decision
    is of ``size``.

    >>> size_threshold("blunder", "points"), size_threshold("inaccuracy", "percentage points")
    (2.0, 0.4)
    """
    return SIZE_FACTORS[size] * COSTLY[shown_unit]


def size_of(shown_cost: float, shown_unit: str) -> str | None:
    """The size of a decision that cost ``shown_cost`` (in ``shown_unit``): ``None`` below an
    inaccuracy.

    >>> size_of(0.1, "points"), size_of(0.6, "points"), size_of(5.0, "percentage points")
    (None, 'mistake', 'blunder')
    """
    found = None
    for size in SIZES:
        if shown_cost >= size_threshold(size, shown_unit):
            found = size
    return found


def decision_accuracy(shown_cost: float, shown_unit: str) -> float:
    """The accuracy of one decision: 100 for the best, halved by each mistake threshold its
    cost makes.

    >>> decision_accuracy(0.0, "points"), decision_accuracy(0.5, "points")
    (100.0, 50.0)
    >>> decision_accuracy(2.0, "percentage points")
    25.0
    """
    return 100.0 * float(2.0 ** -(shown_cost / COSTLY[shown_unit]))


def game_accuracy(decisions: list[ReviewedDecision]) -> float:
    """The average accuracy of these decisions (100 with none)."""
    if not decisions:
        return 100.0
    return math.fsum(decision_accuracy(d.shown_cost, d.shown_unit)
                     for d in decisions) / len(decisions)


@dataclass(frozen=True)
class Moment:
    """One roll or decision of the game with each player's value after it, where known."""

    index: int
    """The position of its event in the log (-1 for the start, the log's length for the
    end)."""
    kind: str
    """``'start'``, ``'roll-off'``, ``'roll'``, ``'decision'``, then ``'end'`` (the game is
    over) or ``'now'`` (it is not)."""
    seat: int | None
    values: dict[int, float]
    """Each seat's value after it (a seat missing: not known there)."""
    size: str | None = None
    """For a decision: its size (:data:`SIZES`) if it cost at least an inaccuracy."""

    def to_dict(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind,
                "player": None if self.seat is None else players[self.seat],
                "values": {players[s]: v for s, v in sorted(self.values.items())},
                "size": self.size}


@dataclass
class PlayerAnalysis:
    """One player's game: luck against skill, accuracy and mistakes by size."""

    seat: int
    player: str
    measure: str
    """What the value is: ``'chance to win'``, ``'expected score'``, or ``'chance (NAME)'``."""
    sense: int
    """+1 when a higher value is better for the player, -1 for an expected score where a
    lower score wins."""
    start: float = 0.0
    dice: float = 0.0
    """Luck from the player's own rolls and the roll-off (above 0: good)."""
    others: float = 0.0
    """Luck from the others' turns, their rolls and their choices (above 0: good)."""
    cost: float = 0.0
    """What the player's decisions cost, in the value's unit."""
    result: float = 0.0
    exact: bool = True
    """Whether the values are exact (with three or more players in a multi-round format the
    optimal player's aim, and so the value, is an approximation)."""
    decisions: list[ReviewedDecision] = field(default_factory=list)
    """The decisions that had more than one legal choice."""

    @property
    def luck(self) -> float:
        return self.dice + self.others

    @property
    def accuracy(self) -> float:
        return game_accuracy(self.decisions)

    @property
    def unit(self) -> str:
        """``points`` or ``chance`` (a probability)."""
        return "points" if self.measure == EXPECTED_SCORE else "chance"

    def sizes(self) -> dict[str, int]:
        """How many decisions of each size (each counted once, at its largest size)."""
        counts = dict.fromkeys(SIZES, 0)
        for d in self.decisions:
            size = size_of(d.shown_cost, d.shown_unit)
            if size is not None:
                counts[size] += 1
        return counts

    def accuracy_sentence(self) -> str:
        """The accuracy, the decisions by size and their total cost in words.

        >>> print(PlayerAnalysis(0, "Bo", "expected score", -1).accuracy_sentence())
        Bo: accuracy 100.0 over 0 choices (no inaccuracies); total cost 0.00 points.
        >>> from shutthebox.coach.review import ReviewedDecision
        >>> one = ReviewedDecision(3, 0, "Bo", "shut", 0b111, (1, 2), 0b100, 0b100, 5.0, 5.0)
        >>> print(PlayerAnalysis(0, "Bo", "expected score", -1, decisions=[one])
        ...       .accuracy_sentence())
        Bo: accuracy 100.0 over 1 choice (no inaccuracies); total cost 0.00 points.
        """
        sizes = _(", ").join(_size_count(size, n) for size, n in self.sizes().items() if n) \
            or _("no inaccuracies")
        total = self.cost * (100.0 if self.unit == "chance" else 1.0)
        choices = len(self.decisions)
        if self.player == YOU:   # the reader is spoken to
            said = (ngettext("Your accuracy: {accuracy} over {count} choice ({sizes}); total "
                             "cost {total} percentage points.",
                             "Your accuracy: {accuracy} over {count} choices ({sizes}); total "
                             "cost {total} percentage points.", choices)
                    if self.unit == "chance" else
                    ngettext("Your accuracy: {accuracy} over {count} choice ({sizes}); total "
                             "cost {total} points.",
                             "Your accuracy: {accuracy} over {count} choices ({sizes}); total "
                             "cost {total} points.", choices))
        else:
            said = (ngettext("{player}: accuracy {accuracy} over {count} choice ({sizes}); "
                             "total cost {total} percentage points.",
                             "{player}: accuracy {accuracy} over {count} choices ({sizes}); "
                             "total cost {total} percentage points.", choices)
                    if self.unit == "chance" else
                    ngettext("{player}: accuracy {accuracy} over {count} choice ({sizes}); "
                             "total cost {total} points.",
                             "{player}: accuracy {accuracy} over {count} choices ({sizes}); "
                             "total cost {total} points.", choices))
        return said.format(player=self.player, accuracy=f"{self.accuracy:.1f}",
                           count=choices,
                           sizes=sizes, total=f"{total:.2f}")

    def sentence(self) -> str:
        """Luck against skill in words.

        >>> print(PlayerAnalysis(0, "Bo", "expected score", -1, 7.5, 2.0, 0, 0.5, 6.0)
        ...       .sentence())   # doctest: +NORMALIZE_WHITESPACE
        Bo: started at 7.50, luck +2.00 points (own rolls +2.00), mistakes -0.50:
        finished at 6.00; the luck weighed more than the mistakes.
        """
        if self.unit == "chance":
            def shown(v: float) -> str:
                return f"{v * 100:.1f} %"

            def change(v: float) -> str:
                return f"{v * 100:+.1f}"
            unit = _("percentage points")
        else:
            def shown(v: float) -> str:
                return f"{v:.2f}"

            def change(v: float) -> str:
                return f"{v:+.2f}"
            unit = _("points")
        others = (_(", the others' turns {change}").format(change=change(self.others))
                  if abs(self.others) >= 5e-4 else "")
        weighed = (_("the mistakes weighed more than the luck") if self.cost > abs(self.luck)
                   else _("the luck weighed more than the mistakes"))
        return _("{player}: started at {start}, luck {luck} {unit} (own rolls {own}{others}), "
                 "mistakes {mistakes}: finished at {result}; {weighed}.").format(
            player=name_of(self.player), start=shown(self.start), luck=change(self.luck),
            unit=unit,
            own=change(self.dice), others=others,
            mistakes=change(-self.cost) if self.cost >= 5e-4 else _("none"),
            result=shown(self.result), weighed=weighed)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "measure": self.measure,
                "unit": self.unit, "sense": self.sense, "exact": self.exact,
                "start": self.start, "luck": self.luck, "luck_own_rolls": self.dice,
                "luck_others": self.others, "cost": self.cost, "result": self.result,
                "accuracy": self.accuracy, "decisions": len(self.decisions),
                "sizes": self.sizes(), "sentence": self.sentence(),
                "accuracy_sentence": self.accuracy_sentence()}


def _size_count(size: str, count: int) -> str:
    """How many decisions of a size, in words."""
    if size == "inaccuracy":
        said = ngettext("{count} inaccuracy", "{count} inaccuracies", count)
    elif size == "mistake":
        said = ngettext("{count} mistake", "{count} mistakes", count)
    else:
        said = ngettext("{count} blunder", "{count} blunders", count)
    return said.format(count=count)


@dataclass(frozen=True)
class Analysis:
    """A whole game for a learner: the review, each player's analysis, the moments for a
    chart, and why each costly move was worse."""

    review: Review
    players: tuple[PlayerAnalysis, ...]
    moments: tuple[Moment, ...]
    reasons: dict[int, str]
    """For each costly decision (by its log index): why the best was better, in a
    sentence (:func:`~shutthebox.coach.explain.explain`)."""
    names: tuple[str, ...]

    def summary(self, players: Collection[str] | None = None) -> list[str]:
        """What a player reads at the end of a game: for each player (of ``players``, by
        name, if given) the accuracy, luck against skill and, for the costliest mistake, why
        the best move was better."""
        lines: list[str] = []
        for player in self.players:
            if players is not None and player.player not in players:
                continue
            lines += [player.accuracy_sentence(), player.sentence()]
            costly = [d for d in player.decisions if d.index in self.reasons]
            if costly:
                worst = max(costly, key=lambda d: d.cost)
                lines.append(about(player.player, N_("Your costliest mistake: {why}"),
                                   N_("{name}'s costliest mistake: {why}"),
                                   why=self.reasons[worst.index]))
        return lines

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-ready data (the command line's ``review --json``, the page):
        ``players`` (each one's :meth:`PlayerAnalysis.to_dict`), ``decisions`` (the
        review's), ``marks`` (each decision of some size: its size, cost and, if costly,
        ``why``), ``moments`` (each player's value after each roll and decision, for a
        chart), the review's totals, mistakes and verdicts, and the size thresholds.

        Decisions are numbered 1, 2, 3 ... in the order played (``number``; the review's
        table and chart say the same numbers); ``index`` is the event's place in the log."""
        numbers = self.review.numbers()
        return {
            "players": [p.to_dict() for p in self.players],
            "decisions": self.review.to_dicts(),
            "marks": [{"number": numbers[d.index], "index": d.index, "player": d.player,
                       "size": size_of(d.shown_cost, d.shown_unit), "costly": d.costly,
                       "cost": d.shown_cost, "unit": d.shown_unit,
                       "why": self.reasons.get(d.index)}
                      for d in self.review if size_of(d.shown_cost, d.shown_unit)],
            "moments": [{**m.to_dict(self.names), "number": numbers.get(m.index)
                         if m.kind == "decision" else None} for m in self.moments],
            "total_cost": self.review.total_costs(),
            "mistakes": self.review.mistakes(),
            "verdicts": self.review.verdicts(),
            "thresholds": {size: {unit: size_threshold(size, unit) for unit in COSTLY}
                           for size in SIZES},
        }


def _before_roll(judged_by: Aim, state: TurnState) -> float:
    """The value before a roll: the average over every roll of the value after it (the
    solver's own, where the aim has a solution)."""
    if judged_by.solution is not None:
        return float(judged_by.solution.dice_value(state.open_tiles, state.dice))
    return math.fsum(float(p) * judged_by.roll_value(state.open_tiles, roll)
                     for roll, p in roll_outcomes(state.dice))


def _after_roll(judged_by: Aim, state: TurnState, roll: Roll) -> float:
    """The value of the roll got: its best move's, or the turn's end if it fits none."""
    if judged_by.solution is not None:
        return float(judged_by.solution.after_roll(state.open_tiles, roll))
    return judged_by.roll_value(state.open_tiles, roll)


@cache
def _round_win(rules: Rules, players: int) -> tuple[float, ...]:
    """Each playing position's chance to win a single round (worked out on each reading)."""
    from shutthebox.solver.rounds import solve_round

    return tuple(float(w) for w in solve_round(rules, players).win)


def _start_values(match: Match) -> tuple[dict[int, float], bool]:
    """Each seat's chance to win once the playing order is known, and whether exact."""
    rules, fmt, n = match.rules, match.config.format, len(match.players)
    order = match.order
    if fmt.kind is FormatKind.SINGLE:
        win = _round_win(rules, n)
        return {seat: float(win[i]) for i, seat in enumerate(order)}, True
    if n == 2:
        from shutthebox.solver.matchplay import solve_match

        first = float(solve_match(rules, fmt).first_win)
        return {order[0]: first, order[1]: 1.0 - first}, True
    return dict.fromkeys(order, 1.0 / n), False


def _action(event: Mapping[str, Any]) -> int:
    return int(event["dice"]) if event["type"] == "dice" else mask_of(event["tiles"])


class _Walk:
    """The bookkeeping of one game's walk: each player's last known value and its buckets."""

    def __init__(self, match: Match, objective: Any, match_tables: bool) -> None:
        self.match = match
        self.objective = objective
        self.match_tables = match_tables
        self.players: dict[int, PlayerAnalysis] = {}
        self.known: dict[int, float] = {}
        self.finished: dict[int, float] = {}
        """By an expected score: the values each player's finished turns ended with."""
        self.turn_of: dict[int, int] = {}
        self.moments: list[Moment] = []
        self.reviewed: list[ReviewedDecision] = []
        self.reasons: dict[int, str] = {}
        self.by_chance: bool | None = None
        self.rolled_off = False

    def player(self, seat: int, judged_by: Aim) -> PlayerAnalysis:
        found = self.players.get(seat)
        if found is None:
            rules = self.match.rules
            sense = -1 if judged_by.is_score and rules.lower_is_better else 1
            found = PlayerAnalysis(seat, self.match.players[seat], judged_by.measure, sense)
            self.players[seat] = found
        return found

    def turns_started(self, seat: int) -> int:
        return sum(1 for e in self.match.events if e["type"] == "turn" and e["seat"] == seat)

    def before(self, seat: int, judged_by: Aim, fresh: float) -> float:
        """The player's value before their step: carried from their last step in the same
        turn, else ``fresh`` (the value where the turn stands), the gap since counted: luck
        from the others' turns by a chance to win, a new turn's start by an expected score."""
        player = self.player(seat, judged_by)
        turn = self.turns_started(seat)
        if self.turn_of.get(seat) == turn and seat in self.known:
            return self.known[seat]
        self.turn_of[seat] = turn
        if self.by_chance:
            player.others += fresh - self.known[seat]
        else:
            if seat in self.known:
                self.finished[seat] = self.finished.get(seat, 0.0) + self.known[seat]
            player.start += fresh
        self.known[seat] = fresh
        return fresh

    def moved(self, seat: int, after: float) -> None:
        """The mover's value after a step; with two players by chances, the other's too."""
        self.known[seat] = after
        if self.by_chance and len(self.match.players) == 2:
            other = 1 - seat
            self.players[other].others += (1.0 - after) - self.known[other]
            self.known[other] = 1.0 - after

    def step(self, index: int, event: Mapping[str, Any]) -> None:
        match = self.match
        pending = match.pending
        if pending.turn is None:   # a roll-off roll
            match.apply_roll(tuple(event["roll"]))
            self.rolled_off = True
            self.moments.append(Moment(index, "roll-off", pending.seat, {}))
            return
        seat, state = pending.seat, pending.turn
        assert seat is not None
        judged_by = aim(match.rules, match.situation(), self.objective,
                        match_tables=self.match_tables)
        if self.by_chance is None:
            self.begin(judged_by)
        player = self.player(seat, judged_by)
        if pending.is_chance:
            before = self.before(seat, judged_by, _before_roll(judged_by, state))
            roll = tuple(sorted(event["roll"]))
            after = _after_roll(judged_by, state, roll)
            player.dice += player.sense * (after - before)
            match.apply_roll(roll)
            self.moved(seat, after)
            self.moments.append(Moment(index, "roll", seat, dict(self.known)))
            return
        ranked = judged_by.ranked(state)
        values = dict(ranked)
        best, played = ranked[0][0], _action(event)
        before = self.before(seat, judged_by, values[best])
        reviewed = judge(index, seat, match.players[seat], state, played, judged_by, ranked)
        self.reviewed.append(reviewed)
        player.cost += reviewed.cost
        if len(ranked) > 1:
            player.decisions.append(reviewed)
        if reviewed.costly:
            self.reasons[index] = explain(state, played, best, judged_by, values[played],
                                          values[best])
        match.decide(played)
        # reached from the carried value, so that each player's sums telescope exactly
        self.moved(seat, before - player.sense * reviewed.cost)
        self.moments.append(Moment(index, "decision", seat, dict(self.known),
                                   size_of(reviewed.shown_cost, reviewed.shown_unit)))

    def begin(self, judged_by: Aim) -> None:
        """The first step judged: by a chance to win, every seat starts at its chance (a
        fair share before a roll-off, whose luck moves it to the chance in its place)."""
        self.by_chance = judged_by.measure == CHANCE_TO_WIN
        start = Moment(-1, "start", None, {})
        if self.by_chance:
            values, exact = _start_values(self.match)
            fair = 1.0 / len(self.match.players)
            for seat, value in values.items():
                player = self.player(seat, judged_by)
                player.exact = exact
                player.start = fair if self.rolled_off else value
                player.dice += value - player.start
            self.known.update(values)
            start = Moment(-1, "start", None, {s: p.start for s, p in self.players.items()})
            if self.rolled_off:
                self.moments[-1] = Moment(self.moments[-1].index, "roll-off",
                                          self.moments[-1].seat, dict(values))
        self.moments.insert(0, start)

    def finish(self, end: int) -> None:
        """The log is walked: by a chance to win, each result is the share of the win (1, a
        tie's 1/k, 0), or in a game not over the chance where it stands; by an expected
        score, what each turn's value ended at (the turn under way: where it stands)."""
        match = self.match
        for seat, player in self.players.items():
            if self.by_chance and match.is_over:
                share = 1.0 / len(match.winners) if seat in match.winners else 0.0
                player.others += share - self.known[seat]
                player.result = self.known[seat] = share
            elif self.by_chance:
                player.result = self.known[seat]
            else:
                player.result = self.finished.get(seat, 0.0) + self.known[seat]
        self.moments.append(Moment(end, "end" if match.is_over else "now", None,
                                   {s: p.result for s, p in self.players.items()}))


def analyse(log: Mapping[str, Any], objective: Any = None, *,
            match_tables: bool = True) -> Analysis:
    """A logged game for a learner (see the module's introduction): each player's luck
    against skill, accuracy and mistakes by size, the moments for a chart, and why each
    costly move was worse. ``objective`` and ``match_tables`` as for
    :func:`~shutthebox.coach.review`.

    :raises LogError: the log cannot be read or does not replay.
    :raises ObjectiveError: ``objective`` cannot be read.
    """
    replay(log)   # the whole log is checked before it is walked
    match = Match(MatchConfig.from_dict(log))
    walk = _Walk(match, objective, match_tables)
    for index, event in enumerate(log["events"]):
        if event.get("type") in INPUT_EVENTS:
            walk.step(index, event)
    walk.finish(len(log["events"]))
    return Analysis(Review(tuple(walk.reviewed)),
                    tuple(walk.players[s] for s in sorted(walk.players)),
                    tuple(walk.moments), walk.reasons, match.players)
