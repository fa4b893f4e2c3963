"""The coach: what to play at a decision, what each choice costs, and how a game was played.

Every answer is in the unit of what the optimal player aims at in that position (its
:class:`Aim`): the expected score alone, the chance to win the round in a deciding single
round, the chance to win the match in a multi-round format, the chance to win the battle in a
battle. The terminal, the web worker and the command line all ask here, so a hint and the
review of the same decision agree everywhere.

- :func:`hint` ranks the choices of a match's pending decision; :func:`rank` does it for any
  turn position and aim (the command line's hand-built positions).
- :func:`review` judges every decision of a logged game against the best, with one threshold
  (:data:`COSTLY`) for what counts as a mistake, and words the verdict.
- :func:`chances` gives the chance to shut and the expected score from the current position.
- :func:`analyse` tells a learner how a game went: each player's accuracy, mistakes by size,
  luck against skill, the value move by move, and why each costly move was worse
  (:func:`explain`).

The solver is imported on first use (numpy, and numba for match tables).

>>> from shutthebox.rules import Rules
>>> from shutthebox.turn import TurnState
>>> state = TurnState.start(Rules(tiles=4)).apply_roll((1, 3))
>>> ranked = rank(state, aim(Rules(tiles=4)))
>>> ranked.measure, [(format_move(c.action), round(c.value, 3)) for c in ranked.choices]
('expected score', [('4', 4.025), ('1 3', 4.764)])
"""

from shutthebox.coach.aims import CHANCE_TO_WIN, EXPECTED_SCORE, Aim, NoDecisionError, aim
from shutthebox.coach.analysis import Analysis, PlayerAnalysis, analyse
from shutthebox.coach.explain import explain
from shutthebox.coach.hints import (
    Chances,
    Choice,
    Hint,
    chances,
    describe_action,
    hint,
    rank,
)
from shutthebox.coach.review import (
    COSTLY,
    Review,
    ReviewedDecision,
    player_verdict,
    review,
    verdict,
)
from shutthebox.strategies import format_move

__all__ = [
    "CHANCE_TO_WIN",
    "COSTLY",
    "EXPECTED_SCORE",
    "Aim",
    "Analysis",
    "Chances",
    "Choice",
    "Hint",
    "NoDecisionError",
    "PlayerAnalysis",
    "Review",
    "ReviewedDecision",
    "aim",
    "analyse",
    "chances",
    "describe_action",
    "explain",
    "format_move",
    "hint",
    "player_verdict",
    "rank",
    "review",
    "verdict",
]
