"""The manual's computed figures (most of them the strategy page's), made by the package as
the manual is built.

Each public function returns Markdown (tables, sentences carrying numbers, image links) that
the ``computed`` directive of ``computed.py`` parses into the page, so that no number on the
page is typed by hand. Plots are written into the folder the directive gives.

Every figure is exact: a policy's outcome is found by letting the probability of each
position flow through the turn (shutting only ever removes tiles, so the open-tile masks in
decreasing order are a topological order), never by sampling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")   # the build has no display
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from shutthebox.rules import PRESETS, Scoring, preset
from shutthebox.solver import MatchPosition, Solution, beat, solve, solve_match
from shutthebox.solver.matchplay import against_score_player
from shutthebox.strategies import (
    FewestTilesStrategy,
    HighestFirstStrategy,
    Situation,
)
from shutthebox.tiles import Tiles, format_tiles, tile_sum, tiles_of
from shutthebox.turn import Phase, TurnState

Policy = Callable[[TurnState], Mapping[int, float]]
"""The probability of each action a player takes at a decision node."""

SOLO = Situation()


@dataclass(frozen=True)
class Decision:
    """One decision a policy meets: how often, what it does, and what that loses."""

    open_tiles: Tiles
    roll: tuple[int, ...] | None     # None for a dice choice
    reach: float                     # the chance per turn of meeting it
    played: int
    best: int
    loss: float                      # the objective's value lost, each time it is met


@dataclass(frozen=True)
class Walk:
    """The exact outcome of a turn played by a policy, judged by a solution."""

    expected: float                  # the policy's value under the solution's objective
    shut: float                      # its chance to shut the box
    scores: dict[int, float]         # the distribution of the turn's score
    decisions: list[Decision]

    @property
    def cost(self) -> float:
        """The value lost against optimal play, per turn: the sum over the decisions met of
        how often each is met times what it loses (the performance-difference identity)."""
        return sum(d.reach * d.loss for d in self.decisions)


def walk(solution: Solution, policy: Policy) -> Walk:
    """Play ``policy`` exactly from the full box and judge each of its decisions."""
    rules = solution.rules
    mass: dict[Tiles, float] = {rules.full: 1.0}
    scores: dict[int, float] = {}
    decisions: list[Decision] = []
    value = 0.0
    for open_tiles in range(rules.full, -1, -1):
        here = mass.pop(open_tiles, 0.0)
        if not here:
            continue
        if open_tiles == 0:
            scores[rules.score(0)] = scores.get(rules.score(0), 0.0) + here
            value += here * float(solution.final_value(0))
            continue
        start = TurnState.before_roll(rules, open_tiles)
        dice_choices: Mapping[int, float] = {start.dice: 1.0}
        if start.is_decision:
            dice_choices = policy(start)
            ranked_dice = solution.ranked_dice(open_tiles)
            for dice, q in dice_choices.items():
                best_dice, best_value = ranked_dice[0]
                loss = abs(float(best_value) - float(solution.dice_value(open_tiles, dice)))
                decisions.append(Decision(open_tiles, None, here * q, dice, best_dice, loss))
        for dice, q in dice_choices.items():
            rolling = start.choose_dice(dice) if start.is_decision else start
            for roll, p in rolling.chance_outcomes():
                share = here * q * float(p)
                rolled = rolling.apply_roll(roll)
                if rolled.is_over:
                    score = rules.score(open_tiles)
                    scores[score] = scores.get(score, 0.0) + share
                    value += share * float(solution.final_value(open_tiles))
                    continue
                best_move = solution.best_move(open_tiles, roll)    # (ranked_moves' first)
                best_value = solution.after_move(open_tiles, best_move)
                for move, r in policy(rolled).items():
                    loss = abs(float(best_value) - float(solution.after_move(open_tiles, move)))
                    decisions.append(Decision(open_tiles, roll, share * r, move, best_move, loss))
                    after = open_tiles & ~move
                    mass[after] = mass.get(after, 0.0) + share * r
    walked = Walk(value, scores.get(rules.score(0), 0.0), dict(sorted(scores.items())), decisions)
    if abs(abs(value - float(solution.value())) - walked.cost) > 1e-9:
        raise AssertionError(f"the costs of {len(decisions)} decisions add up to {walked.cost}, "
                             f"not to the policy's loss {abs(value - float(solution.value()))}")
    return walked


# --- the players compared ------------------------------------------------------------------

def optimal(solution: Solution) -> Policy:
    """The solver's own play for its objective."""
    def choose(state: TurnState) -> Mapping[int, float]:
        if state.phase is Phase.CHOOSE_DICE:
            return {solution.best_dice(state.open_tiles): 1.0}
        assert state.roll is not None
        return {solution.best_move(state.open_tiles, state.roll): 1.0}
    return choose


def strategy_policy(choose: Callable[[TurnState, Situation], int]) -> Policy:
    """A built-in computer player as a policy."""
    return lambda state: {choose(state, SOLO): 1.0}


def most_tiles(state: TurnState) -> Mapping[int, float]:
    """Shut as many tiles as the roll allows (the low tiles go first), two dice while the
    open tiles sum to more than 6."""
    if state.phase is Phase.CHOOSE_DICE:
        return {1 if tile_sum(state.open_tiles) <= 6 else 2: 1.0}
    return {max(state.legal_actions(), key=lambda move: move.bit_count()): 1.0}


def uniform(state: TurnState) -> Mapping[int, float]:
    """Any legal action, each as likely."""
    actions = state.legal_actions()
    return {action: 1.0 / len(actions) for action in actions}


def two_dice_always(solution: Solution) -> Policy:
    """The solver's moves, but never one die."""
    best = optimal(solution)
    def choose(state: TurnState) -> Mapping[int, float]:
        return {2: 1.0} if state.phase is Phase.CHOOSE_DICE else best(state)
    return choose


RULES_OF_THUMB: dict[str, tuple[str, Callable[[Solution], Policy]]] = {
    "highest-first": ("shut the move holding the highest tile (`cpu:medium`)",
                      lambda s: strategy_policy(HighestFirstStrategy().choose)),
    "fewest-tiles": ("shut as few tiles as the roll allows, the highest such move first",
                     lambda s: strategy_policy(FewestTilesStrategy().choose)),
    "most-tiles": ("shut as many tiles as the roll allows, the low tiles first",
                   lambda s: most_tiles),
    "random": ("any legal move, each as likely (`cpu:easy`)", lambda s: uniform),
}
"""The simple ways of playing the strategy page weighs against exact play, with what they do."""


# --- formatting ----------------------------------------------------------------------------

def percent(p: float, digits: int = 2) -> str:
    return f"{100 * p:.{digits}f} %"


def shown(tiles: Tiles) -> str:
    """Tiles as a player reads them, lowest first: ``1 2 4``."""
    return " ".join(map(str, tiles_of(tiles))) or "none"


def roll_text(roll: tuple[int, ...]) -> str:
    return "+".join(map(str, roll)) + (f"={sum(roll)}" if len(roll) > 1 else "")


def move_text(decision: Decision) -> tuple[str, str]:
    """What was played and what was best, in words."""
    if decision.roll is None:
        return f"{decision.played} dice", f"{decision.best} dice"
    return format_tiles(decision.played), format_tiles(decision.best)


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    header = list(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Plots:
    """Where the plots of a build go, and how its pages link to them."""

    folder: Path
    link: str

    def image(self, figure: Figure, name: str, alt: str) -> str:
        """Save ``figure`` as ``name`` and answer the Markdown that shows it (its alt text is
        its caption)."""
        figure.savefig(self.folder / name)
        plt.close(figure)
        return f"![{alt}]({self.link}/{name})\n"


# --- the figures ---------------------------------------------------------------------------

def preset_table(plots: Plots) -> str:
    """The chance to shut and the expected score of every preset under exact play."""
    rows = []
    for name, entry in PRESETS.items():
        rules = entry.rules
        for_score = solve(rules, "score")
        for_shut = solve(rules, "shut")
        better = "higher" if rules.scoring is Scoring.COVERED else "lower"
        rows.append((f"`{name}`", rules.tiles, f"{rules.scoring} ({better} is better)",
                     f"{float(for_score.expected_score):.3f}",
                     percent(float(for_score.p_shut)), percent(float(for_shut.p_shut))))
    return table(["preset", "tiles", "scoring", "expected score, playing for it",
                  "chance to shut then", "best chance to shut"], rows)


def rules_of_thumb_table(plots: Plots) -> str:
    """What each rule of thumb costs per turn against exact play, on two presets."""
    rows = []
    for name in ("classic", "pub"):
        rules = preset(name)
        score, shut = solve(rules, "score"), solve(rules, "shut")
        rows.append((f"`{name}`", "exact play (`cpu:hard`)", f"{float(score.expected_score):.3f}",
                     "-", percent(float(score.p_shut))))
        for thumb, (_, make) in RULES_OF_THUMB.items():
            played = walk(score, make(score))
            rows.append((f"`{name}`", thumb, f"{played.expected:.3f}", f"{played.cost:.3f}",
                         percent(walk(shut, make(shut)).expected)))
    return table(["rules", "player", "expected score", "cost per turn (points)",
                  "chance to shut"], rows)


def score_plot(plots: Plots) -> str:
    """The distribution of a turn's score on `classic`, exact play against two rules of thumb."""
    rules = preset("classic")
    solution = solve(rules, "score")
    players = {"exact play": optimal(solution),
               "highest-first": RULES_OF_THUMB["highest-first"][1](solution),
               "most-tiles": most_tiles}
    figure, axes = plt.subplots(figsize=(7.5, 3.4), dpi=100)
    width = 0.28
    for k, (label, policy) in enumerate(players.items()):
        scores = walk(solution, policy).scores
        axes.bar([s + (k - 1) * width for s in scores], [100 * p for p in scores.values()],
                 width=width, label=label)
    axes.set_xlabel("score of the turn (the open tiles' sum)")
    axes.set_ylabel("chance (%)")
    axes.set_xlim(-1, 46)
    axes.legend(frameon=False)
    figure.tight_layout()
    return plots.image(figure, "score-distribution.png",
                 "Bar chart: the chance of each score of a classic turn under exact play, "
                 "highest-first and most-tiles")


def mistakes_table(plots: Plots, thumb: str = "highest-first", rules_name: str = "classic",
                   count: int = 6) -> str:
    """Where a rule of thumb loses most: its decisions by how often they are met times what
    they lose each time."""
    solution = solve(preset(rules_name), "score")
    played = walk(solution, RULES_OF_THUMB[thumb][1](solution))
    worst = sorted(by_total(d for d in played.decisions if d.loss > 1e-12),
                   key=lambda d: d.reach * d.loss, reverse=True)[:count]
    share = sum(d.reach * d.loss for d in worst) / played.cost
    rows = []
    for d in worst:
        rule_move, best_move = move_text(d)
        rows.append((shown(d.open_tiles), str(sum(d.roll)) if d.roll else "-", rule_move,
                     best_move, f"{d.loss:.3f}", f"{100 * d.reach:.2f}",
                     f"{d.reach * d.loss:.4f}"))
    return (table(["open", "roll's total", f"{thumb} shuts", "best", "points lost",
                   "met in 100 turns", "cost per turn"], rows)
            + f"\nThese {len(worst)} positions hold {percent(share, 0)} of {thumb}'s cost on "
            f"`{rules_name}` ({played.cost:.3f} points per turn over "
            f"{sum(1 for d in played.decisions if d.loss > 1e-12)} positions where it errs).\n")


def by_total(decisions: Iterable[Decision]) -> list[Decision]:
    """The decisions with rolls of the same total merged (the move depends on the total only):
    the first roll of each total stands for them all, met as often as they are together."""
    merged: dict[tuple[Tiles, int | None, int], Decision] = {}
    for d in decisions:
        key = (d.open_tiles, None if d.roll is None else sum(d.roll), d.played)
        seen = merged.get(key)
        merged[key] = d if seen is None else Decision(
            seen.open_tiles, seen.roll, seen.reach + d.reach, seen.played, seen.best, seen.loss)
    return list(merged.values())


def dice_text(dice: int) -> str:
    return "1 die" if dice == 1 else f"{dice} dice"


def one_die_table(plots: Plots) -> str:
    """When one die is better than two, on the presets that let you choose."""
    parts = []
    for name in ("pub", "lever-9"):
        rules = preset(name)
        by_score, by_shut = solve(rules, "score"), solve(rules, "shut")
        rows = []
        for open_tiles in range(1, rules.full + 1):
            if rules.dice_choices(open_tiles) != (1, 2):
                continue
            score_ranked = dict(by_score.ranked_dice(open_tiles))
            shut_ranked = dict(by_shut.ranked_dice(open_tiles))
            best_score, best_shut = by_score.best_dice(open_tiles), by_shut.best_dice(open_tiles)
            if best_score == 2 and best_shut == 2:
                continue
            rows.append((shown(open_tiles), dice_text(best_score),
                         f"{abs(float(score_ranked[1]) - float(score_ranked[2])):.3f}",
                         dice_text(best_shut),
                         f"{100 * abs(float(shut_ranked[1]) - float(shut_ranked[2])):.2f}"))
        choosing = sum(1 for t in range(1, rules.full + 1) if rules.dice_choices(t) == (1, 2))
        cost_score = walk(by_score, two_dice_always(by_score)).cost
        cost_shut = walk(by_shut, two_dice_always(by_shut)).cost
        parts.append(
            f"On `{name}` you may choose in {choosing} positions; one die is better in "
            f"{len(rows)} of them for one aim or the other. Never taking one die costs "
            f"{cost_score:.3f} points per turn, or {100 * cost_shut:.2f} percentage points of "
            f"the chance to shut.\n\n"
            + table(["open", "for the score", "points gained", "to shut",
                     "percentage points gained"], rows))
    return "\n".join(parts)


def where_play_changes(aim: Solution, reached: list[Decision]) -> tuple[list[Decision], str]:
    """The moves met under play for the score that ``aim`` plays otherwise, and the one met
    most often, in words."""
    differing = [d for d in reached if d.roll is not None
                 and aim.best_move(d.open_tiles, d.roll) != d.best]
    if not differing:
        return differing, "-"
    d = max(by_total(differing), key=lambda d: d.reach)
    assert d.roll is not None
    return differing, (f"{shown(d.open_tiles)}, roll {sum(d.roll)}: "
                       f"{format_tiles(aim.best_move(d.open_tiles, d.roll))}, "
                       f"not {format_tiles(d.best)}")


def posted_score_table(plots: Plots, rules_name: str = "classic") -> str:
    """What playing for a posted score gains over playing for the score, for several targets,
    and the position met most often where the two play differently."""
    rules = preset(rules_name)
    score = solve(rules, "score")
    reached = walk(score, optimal(score)).decisions
    rows = []
    for target in (2, 4, 7, 10, 13, 16, 20):
        aim = solve(rules, beat(target))
        for_score = walk(aim, optimal(score)).expected
        differing, example = where_play_changes(aim, reached)
        rows.append((f"below {target}", percent(for_score), percent(float(aim.value())),
                     f"{100 * (float(aim.value()) - for_score):.2f}",
                     percent(sum(d.reach for d in differing), 1), example))
    return table(["to win you must score", "chance, playing for the score",
                  "chance, playing for it", "percentage points gained",
                  "chance the turn meets a position where the move changes",
                  "the one met most often"], rows)


def match_table(plots: Plots, rules_name: str = "classic", fmt: str = "loser-at:100") -> str:
    """How match play departs from playing for the score, by the totals: the chance to win,
    and how often a turn meets a position where the best move changes."""
    rules = preset(rules_name)
    match = solve_match(rules, fmt, disk=False)
    score = solve(rules, "score")
    reached = walk(score, optimal(score)).decisions
    rows = []
    for mine, theirs in ((0, 0), (40, 40), (60, 90), (90, 60), (85, 40), (95, 95)):
        position = MatchPosition(totals=(mine, theirs), mover=0)
        aim = solve(rules, match.turn_objective(position))
        with_score = walk(aim, optimal(score)).expected
        differing, example = where_play_changes(aim, reached)
        rows.append((f"{mine} to {theirs}", percent(float(aim.value()), 1),
                     f"{100 * (float(aim.value()) - with_score):.2f}",
                     percent(sum(d.reach for d in differing), 1), example))
    return table(["your total to theirs, you to play", "chance to win the match",
                  "percentage points gained this turn over playing for the score",
                  "chance the turn meets a position where the move changes",
                  "the one met most often"], rows)


def opening_table(plots: Plots, rules_name: str = "classic") -> str:
    """The first roll of a turn: the best move for each total, and what the moves of the
    rules of thumb cost when they differ."""
    rules = preset(rules_name)
    solution = solve(rules, "score")
    start = TurnState.before_roll(rules, rules.full)
    thumbs = {name: make(solution) for name, (_, make) in RULES_OF_THUMB.items()
              if name != "random"}
    rows = []
    for total in range(2, 13):
        roll = next(r for r, _ in start.chance_outcomes() if sum(r) == total)
        ranked = solution.ranked_moves(rules.full, roll)
        best_value = float(ranked[0][1])
        cells: list[str] = []
        for policy in thumbs.values():
            (move, _), = policy(start.apply_roll(roll)).items()
            loss = abs(float(solution.after_move(rules.full, move)) - best_value)
            cells.append("right" if loss < 1e-12 else f"{format_tiles(move)} ({loss:.3f})")
        runner_up = (f"{format_tiles(ranked[1][0])} ({abs(float(ranked[1][1]) - best_value):.3f})"
                     if len(ranked) > 1 else "-")
        rows.append((total, format_tiles(ranked[0][0]), runner_up, *cells))
    return table(["total", "best", "next best (points lost)",
                  *(f"{name} (points lost)" for name in thumbs)], rows)


def one_die_rule(plots: Plots) -> str:
    """The rule of one die, in a sentence, checked over every position of the presets that let
    you choose."""
    found = []
    for name in ("pub", "lever-9", "family-12"):
        rules = preset(name)
        by_score = solve(rules, "score")
        choosing = [t for t in range(1, rules.full + 1) if rules.dice_choices(t) == (1, 2)]
        one = [t for t in choosing if by_score.best_dice(t) == 1]
        low = all((tile_sum(t) <= 6) == (t in one) for t in choosing)
        found.append(f"`{name}`: one die in {len(one)} of {len(choosing)} positions, "
                     + ("exactly those whose open tiles sum to 6 or less" if low else
                        "not exactly those whose open tiles sum to 6 or less"))
    return "For the score: " + "; ".join(found) + ".\n"


def match_edge(plots: Plots, rules_name: str = "classic") -> str:
    """The exact chance that match play beats a player who plays every turn for the score."""
    rules = preset(rules_name)
    rows = []
    for fmt in ("single", "rounds:3"):
        first, second = (against_score_player(rules, fmt, seat) for seat in (True, False))
        rows.append((f"`{fmt}`", percent(first), percent(second), percent((first + second) / 2)))
    return table(["format", "match play first", "match play second", "its share of the wins"],
                 rows)


def preset_list(plots: Plots) -> str:
    """The presets, in the words the command line and the web page use for them."""
    return table(["preset", "what it sets", "rule sheet"],
                 [(f"`{name}`", entry.summary, entry.source) for name, entry in PRESETS.items()])


def baselines(plots: Plots) -> str:
    """The regret of simple policies in ``shutthebox/ShutTheBox-v0`` (reward: the tiles shut,
    so a turn's return is the tiles' total less the score), exactly."""
    rules = preset("classic")
    solution = solve(rules, "score")
    total = rules.tiles * (rules.tiles + 1) // 2
    rows = [("exact optimum (`info[\"optimal_value\"]` at the start)",
             f"{total - float(solution.value()):.3f}", "0")]
    for name, (what, make) in RULES_OF_THUMB.items():
        played = walk(solution, make(solution))
        rows.append((f"{name}: {what}", f"{total - played.expected:.3f}", f"{played.cost:.3f}"))
    return table(["policy", "expected return", "regret"], rows)


def how_to_play_page(plots: Plots, rules_name: str = "classic", fmt: str = "single") -> str:
    """The web page's "How to play" screen for a game of the classic rules, from the same
    function that makes it for the page."""
    from shutthebox.guide import how_to_play

    return "\n\n".join(f"**{section.heading}.** " + " ".join(section.lines)
                       for section in how_to_play(preset(rules_name), fmt))


FIGURES: dict[str, Callable[[Plots], str]] = {
    "presets": preset_table,
    "rules-of-thumb": rules_of_thumb_table,
    "score-distribution": score_plot,
    "mistakes": mistakes_table,
    "mistakes-fewest": lambda plots: mistakes_table(plots, "fewest-tiles", count=4),
    "one-die": one_die_table,
    "posted-score": posted_score_table,
    "match": match_table,
    "opening": opening_table,
    "one-die-rule": one_die_rule,
    "match-edge": match_edge,
    "preset-list": preset_list,
    "baselines": baselines,
    "how-to-play": how_to_play_page,
}
"""The figures by the name the pages give the ``computed`` directive."""
