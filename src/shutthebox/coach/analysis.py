"""How a game went, for a learner: each player's accuracy, mistakes by size, luck against
skill, the value move by move (for a chart) and why each costly move was worse.

**The value.** Each player's value is what the optimal player aims at (:func:`aim`): the
chance to win the match when others play (:data:`CHANCE_TO_WIN`), else the expected score of
the turn under way (or the objective asked for). It is known before and after every roll and
decision of the player's own turns; with two players, each one's chance to win is also one
minus the mover's.

**Luck against skill.** Luck is what the player's own dice did: each of their rolls moved
their value from before it (the average over every roll the dice could give) to after it (the
best move's value for the roll they got), and the roll-off moved it to the chance in its place
(:attr:`PlayerAnalysis.dice`). Skill is what their decisions cost (:attr:`PlayerAnalysis.cost`,
always 0 or more). What the others did in their turns is neither, and is counted apart, as
backgammon programs and RoyalUr.net do: the others' dice
(:attr:`PlayerAnalysis.others_dice`) and the others' mistakes
(:attr:`PlayerAnalysis.others_mistakes`, 0 or more with two players: a mistake of the
opponent is a gift). For each player, exactly::

    result = start + sense * (dice + others_dice + others_mistakes - cost)

where ``sense`` is -1 when the value is an expected score and a lower score wins (the default
scoring: good luck lowers it), else +1; every term above 0 is good for the player. By a
chance to win, ``start`` is the chance at the start and ``result`` the share of the win (1,
a tie's 1/k, or 0); by an expected score, ``start`` adds up the value at the start of each of
the player's turns and ``result`` the score of each, and the others' turns move nothing.

With two players each one's chance is one minus the other's, so each roll and decision of the
opponent is counted as it happens: exact. With three or more, a player's chance is known on
their own turns only; the change since is split by what the movers lost: what a mover's
decision cost, the others still in gained together, and each is counted a share of it in
proportion to their chance as last known (as if the others' odds against each other stayed as they
were: a player who can no longer win gains nothing); the rest of the change is the others'
dice. The split is then an estimate (:attr:`PlayerAnalysis.split_exact` is false); the sum
stays exact.

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

from shutthebox.coach.accuracy import (
    SIZES,
    game_accuracy,
    size_of,
    size_threshold,
)
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
    """Luck: what the player's own rolls and the roll-off did (above 0: good)."""
    others_dice: float = 0.0
    """What the others' rolls did to the player's value (above 0: good)."""
    others_mistakes: float = 0.0
    """What the others' decisions gave the player (0 or more with two players)."""
    cost: float = 0.0
    """What the player's decisions cost, in the value's unit."""
    result: float = 0.0
    exact: bool = True
    """Whether the values are exact (with three or more players in a multi-round format the
    optimal player's aim, and so the value, is an approximation)."""
    against_others: bool = False
    """Whether the others' turns move the player's value (a chance to win, with others)."""
    split_exact: bool = True
    """Whether the others' dice and mistakes are told apart exactly (with three or more
    players, the others' mistakes are their costs shared by chance: see the module)."""
    decisions: list[ReviewedDecision] = field(default_factory=list)
    """The decisions that had more than one legal choice."""

    @property
    def luck(self) -> float:
        """The player's own dice (:attr:`dice`): the luck that was theirs."""
        return self.dice

    @property
    def others(self) -> float:
        """Everything the others' turns did: their dice and their mistakes."""
        return self.others_dice + self.others_mistakes

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
        """Luck against skill in words: the start, the player's own dice (their luck), the
        others' dice and mistakes where the others' turns move the value, the player's own
        mistakes, the result, and which weighed most.

        >>> print(PlayerAnalysis(0, "Bo", "expected score", -1, 7.5, 2.0, cost=0.5,
        ...                      result=6.0).sentence())   # doctest: +NORMALIZE_WHITESPACE
        Bo: started at 7.50, then luck (own dice) +2.00 and own mistakes -0.50 points:
        finished at 6.00; the dice weighed most.
        >>> print(PlayerAnalysis(0, "Al", "chance to win", 1, 0.5, 0.04, -0.03, 0.5, 0.01, 1.0,
        ...                      against_others=True).sentence())
        ... # doctest: +NORMALIZE_WHITESPACE
        Al: started at 50.0 %, then luck (own dice) +4.0, the others' dice -3.0, the others'
        mistakes +50.0 and own mistakes -1.0 percentage points: finished at 100.0 %; the
        others' mistakes weighed most.
        """
        by_chance = self.unit == "chance"

        def change(v: float) -> str:
            return signed_term(v, self.unit)

        def shown(v: float) -> str:
            plain = f"{round(v * 100, 1) or 0.0:.1f}" if by_chance else f"{round(v, 2) or 0.0:.2f}"
            return f"{plain} %" if by_chance else plain

        unit = _("percentage points") if by_chance else _("points")
        net_dice = abs(self.dice + self.others_dice)
        if self.cost > net_dice and self.cost >= abs(self.others_mistakes):
            weighed = _("own mistakes weighed most")
        elif abs(self.others_mistakes) > net_dice:
            weighed = _("the others' mistakes weighed most")
        else:
            weighed = _("the dice weighed most")
        if self.against_others:
            said = _("{player}: started at {start}, then luck (own dice) {luck}, the others' "
                     "dice {others_dice}, the others' mistakes {others_mistakes} and own "
                     "mistakes {mistakes} {unit}: finished at {result}; {weighed}.")
        else:
            said = _("{player}: started at {start}, then luck (own dice) {luck} and own "
                     "mistakes {mistakes} {unit}: finished at {result}; {weighed}.")
        return said.format(
            player=name_of(self.player), start=shown(self.start), luck=change(self.dice),
            others_dice=change(self.others_dice), others_mistakes=change(self.others_mistakes),
            mistakes=change(-self.cost), unit=unit, result=shown(self.result), weighed=weighed)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "measure": self.measure,
                "unit": self.unit, "sense": self.sense, "exact": self.exact,
                "start": self.start, "luck": self.dice, "others_dice": self.others_dice,
                "others_mistakes": self.others_mistakes, "cost": self.cost,
                "result": self.result, "against_others": self.against_others,
                "split_exact": self.split_exact, "accuracy": self.accuracy,
                "decisions": len(self.decisions), "sizes": self.sizes(),
                "sentence": self.sentence(), "accuracy_sentence": self.accuracy_sentence()}


def signed_term(value: float, unit: str) -> str:
    """A term of luck against skill as the review shows it: signed, in percentage points for
    a ``chance`` (one decimal), in points else (two); nothing shows unsigned.

    >>> signed_term(0.0412, "chance"), signed_term(-1.5, "points"), signed_term(-1e-9, "chance")
    ('+4.1', '-1.50', '0.0')
    """
    scale, places = (100.0, 1) if unit == "chance" else (1.0, 2)
    rounded = round(value * scale, places)   # rounded first, so that nothing reads "-0.0"
    return f"{rounded:+.{places}f}" if rounded else f"{0.0:.{places}f}"


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
        self.gifts: dict[int, float] = {}
        """By a chance to win: what the others' decisions since each player's value was last
        known owe them (see :meth:`moved`)."""

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
        turn, else ``fresh`` (the value where the turn stands), the gap since counted: what
        the others' turns did by a chance to win, a new turn's start by an expected score."""
        player = self.player(seat, judged_by)
        turn = self.turns_started(seat)
        if self.turn_of.get(seat) == turn and seat in self.known:
            return self.known[seat]
        self.turn_of[seat] = turn
        if self.by_chance:
            self.others_moved(player, fresh)
        else:
            if seat in self.known:
                self.finished[seat] = self.finished.get(seat, 0.0) + self.known[seat]
            player.start += fresh
        self.known[seat] = fresh
        return fresh

    def others_moved(self, player: PlayerAnalysis, now: float) -> None:
        """A player's value is ``now`` after the others' steps since it was last known: the
        change is the others' mistakes (what their costs owe the player), and the rest the
        others' dice."""
        gift = self.gifts.pop(player.seat, 0.0)
        player.others_mistakes += gift
        player.others_dice += (now - self.known[player.seat]) - gift
        self.known[player.seat] = now

    def moved(self, seat: int, after: float, cost: float | None = None) -> None:
        """The mover's value after a step (a decision that cost ``cost``, else a roll).

        With two players by chances, the other's value is one minus the mover's and moves at
        once: the mover's roll is the other's dice, the mover's cost the other's gift. With
        more, each other player still in is owed a share of the cost in proportion to their
        chance (equal shares if none has any), counted when their value is next known."""
        self.known[seat] = after
        if not self.by_chance:
            return
        if len(self.match.players) == 2:
            other = 1 - seat
            self.gifts[other] = self.gifts.get(other, 0.0) + (cost or 0.0)
            self.others_moved(self.players[other], 1.0 - after)
        elif cost:
            others = [s for s in self.players if s != seat and self.match.active[s]]
            chances = {s: max(self.known[s], 0.0) for s in others}
            total = math.fsum(chances.values())
            for other in others:
                share = chances[other] / total if total > 0 else 1.0 / len(others)
                self.gifts[other] = self.gifts.get(other, 0.0) + cost * share

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
        self.moved(seat, before - player.sense * reviewed.cost, reviewed.cost)
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
                player.against_others = len(values) > 1
                player.split_exact = len(values) <= 2
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
                self.others_moved(player, 1.0 / len(match.winners)
                                  if seat in match.winners else 0.0)
                player.result = self.known[seat]
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
