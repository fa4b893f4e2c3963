"""Ratings (:mod:`shutthebox.coach.ratings`): Elo generalised to several players moves the
right way on constructed results, holds the computers still, and reads finished games."""

from __future__ import annotations

import random

import pytest

from shutthebox.coach.ratings import (
    COMPUTER_RATINGS,
    START,
    GameResult,
    K,
    RatingError,
    Ratings,
    expected,
    likeness,
    rate,
)
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.rules import Rules
from shutthebox.strategies import make_strategy
from tests.test_coach import SMALL


def won(*places: str | tuple[str, ...]) -> GameResult:
    return GameResult(tuple(p if isinstance(p, tuple) else (p,) for p in places))


def test_the_winner_gains_what_the_loser_loses_between_equals() -> None:
    ratings = Ratings()
    changes = ratings.record(won("Ann", "Bo"))
    assert changes == {"Ann": K / 2, "Bo": -K / 2}
    assert ratings.rating("Ann") > START > ratings.rating("Bo")


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    ratings = Ratings({"strong": 1800.0, "weak": 1200.0})
    upset = ratings.record(won("Ann", "strong"))["Ann"]
    ratings = Ratings({"strong": 1800.0, "weak": 1200.0})
    expected_win = ratings.record(won("Ann", "weak"))["Ann"]
    assert upset > K / 2 > expected_win > 0


def test_a_draw_moves_the_stronger_player_down_and_the_weaker_up() -> None:
    ratings = rate([won("Ann", "Bo")] * 5)
    high, low = ratings.rating("Ann"), ratings.rating("Bo")
    changes = ratings.record(won(("Ann", "Bo")))
    assert changes["Ann"] < 0 < changes["Bo"]
    assert changes["Ann"] == pytest.approx(-changes["Bo"])
    assert ratings.rating("Ann") < high and ratings.rating("Bo") > low


def test_in_a_game_of_several_each_place_rates_above_the_next() -> None:
    ratings = Ratings()
    changes = ratings.record(won("Ann", "Bo", "Cy", "Di"))
    assert changes["Ann"] > changes["Bo"] > 0 > changes["Cy"] > changes["Di"]
    assert sum(changes.values()) == pytest.approx(0.0)
    # one game weighs the same whatever the table's size: first of four gains what first
    # of two gains, between equals
    assert changes["Ann"] == pytest.approx(K / 2)


def test_the_computers_ratings_never_move() -> None:
    ratings = Ratings(dict(COMPUTER_RATINGS))
    for _ in range(10):
        ratings.record(won("Ann", "optimal"))
    assert ratings.rating("optimal") == COMPUTER_RATINGS["optimal"]
    assert ratings.rating("Ann") > COMPUTER_RATINGS["optimal"]
    assert len(ratings.history["Ann"]) == 10 and ratings.games["optimal"] == 10
    assert "optimal" not in ratings.ratings


def test_the_better_player_ends_rated_higher_over_many_games() -> None:
    rng = random.Random(3)
    results = [won("Ann", "Bo") if rng.random() < 0.7 else won("Bo", "Ann")
               for _ in range(400)]
    ratings = rate(results)
    # along the way, Ann is expected to win more often than not nearly always
    ahead = [a > b for a, b in zip(ratings.history["Ann"], ratings.history["Bo"], strict=True)]
    assert sum(ahead[50:]) > 0.9 * len(ahead[50:])
    assert expected(ratings.rating("Ann"), ratings.rating("Bo")) > 0.55


def test_a_finished_match_is_placed_winners_first_then_by_total() -> None:
    rules = SMALL
    for game_format in ("single", "rounds:2", "loser-at:25", "battle:rolls"):
        players = 2 if game_format.startswith("battle") else 3
        match = Match(MatchConfig(rules, GameFormat.parse(game_format),
                                  ("Ann", "Bo", "Cy")[:players]))
        play_out(match, {s: make_strategy("random", rules, random.Random(s))
                         for s in range(players)}, random.Random(4))
        result = GameResult.of_log(match.to_log())
        assert set(result.players) == set(match.players)
        assert result.places[0] == tuple(match.players[s] for s in match.winners)
        if match.losers:
            assert result.places[-1] == tuple(match.players[s] for s in match.losers)
        middle = [p for place in result.places[1:len(result.places) - bool(match.losers)]
                  for p in place]
        totals = [match.totals[match.players.index(p)] for p in middle]
        assert totals == sorted(totals)   # lower totals placed better (sum scoring)


def test_unfinished_or_odd_results_are_refused() -> None:
    match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bo")))
    with pytest.raises(RatingError, match="only a finished game"):
        GameResult.of_match(match)
    with pytest.raises(RatingError, match="two players or more"):
        won("Ann")
    with pytest.raises(RatingError, match="placed twice"):
        won("Ann", "Ann")


def test_a_rating_reads_as_a_computer_strength() -> None:
    assert "medium computer" in likeness(COMPUTER_RATINGS["highest-first"])
    assert "easy computer" in likeness(COMPUTER_RATINGS["random"])
    assert likeness(3000.0).startswith("plays better than the hard computer")
    assert likeness(0.0).startswith("plays below the easy computer")
    assert sorted(COMPUTER_RATINGS, key=COMPUTER_RATINGS.__getitem__)[0] == "random"
    assert COMPUTER_RATINGS["highest-first"] == START
