"""What a learning run measured against the exact optimum, as the examples print it.

>>> result = Regret("Q-learning", steps=1000, minutes=0.5, mean_return=32.45,
...                 half_width=0.11, optimum=33.84)
>>> round(result.regret, 2)
1.39
>>> print(result.report(total=45))
Q-learning, 1,000 steps in 0.5 min
greedy policy:  average return 32.450 ± 0.110 (expected score 12.550)
exact optimum:  average return 33.840 (expected score 11.160); regret 1.390
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Regret:
    """A learned policy's average return beside the exact optimal return."""

    learner: str
    steps: int
    minutes: float
    mean_return: float
    half_width: float
    """Half the width of the 95 % interval of the mean."""
    optimum: float

    @property
    def regret(self) -> float:
        """How much return the policy leaves on the table, on average."""
        return self.optimum - self.mean_return

    def report(self, total: int) -> str:
        """Three lines for people; ``total`` is the sum of the tiles (the return of the
        ``score`` reward is ``total`` minus the expected score)."""
        return (f"{self.learner}, {self.steps:,} steps in {self.minutes:.1f} min\n"
                f"greedy policy:  average return {self.mean_return:.3f} ± "
                f"{self.half_width:.3f} (expected score {total - self.mean_return:.3f})\n"
                f"exact optimum:  average return {self.optimum:.3f} "
                f"(expected score {total - self.optimum:.3f}); regret {self.regret:.3f}")
