"""What a finished game records for each player (the rows of the ``results`` table, read by
the statistics, the ratings and the daily box's table)."""

from __future__ import annotations

from typing import Any

from shutthebox.match import Match


def game_results(match: Match) -> list[dict[str, Any]]:
    """Each player's result of the finished ``match``, as
    :func:`~shutthebox.web.storage.record_results` stores them (a battle has none)."""
    if match.config.format.kind.value == "battle":
        return []
    scores: dict[int, list[int]] = {seat: [] for seat in range(len(match.players))}
    shut_boxes = dict.fromkeys(scores, 0)
    for item in match.events:
        if item["type"] == "turn-end":
            scores[item["seat"]].append(item["score"])
            shut_boxes[item["seat"]] += int(item["shut_box"])
    rules, fmt = match.rules.to_dict(), str(match.config.format)
    return [{"seat": seat, "player": name, "rules": rules, "format": fmt,
             "won": 1 / len(match.winners) if seat in match.winners else 0.0,
             "scores": scores[seat], "shut_boxes": shut_boxes[seat]}
            for seat, name in enumerate(match.players)]
