"""Finished games' answers worked out once: kept by game, log length and language, the least
recently asked let go first; an approximate answer, an error, or a game not over never kept;
a request that goes away does not end the call the others wait for."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from shutthebox.language import speaking
from shutthebox.web.solving.shared import SharedAnswers


class Solver:
    """A stand-in for the solver call: counts its calls, each ``seconds`` long, answering
    ``answer`` (with the call's number and language) or raising ``error``."""

    def __init__(self, answer: dict[str, Any] | None = None, seconds: float = 0.0,
                 error: Exception | None = None) -> None:
        self.calls = 0
        self.answer = answer or {"verdict": "fine", "note": None}
        self.seconds = seconds
        self.error = error

    async def __call__(self) -> dict[str, Any]:
        from shutthebox.language import current_language

        self.calls += 1
        await asyncio.sleep(self.seconds)
        if self.error is not None:
            raise self.error
        return {**self.answer, "call": self.calls, "language": current_language()}


def test_requests_together_share_one_call_and_later_ones_the_kept_answer() -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(), Solver(seconds=0.05)
        answers = await asyncio.gather(*(shared.answer("g", 40, solver) for _ in range(6)))
        assert solver.calls == 1 and all(a is answers[0] for a in answers)
        assert await shared.answer("g", 40, solver) is answers[0]
        with speaking("fr"):                           # sentences in another language
            french = await shared.answer("g", 40, solver)
        assert french["language"] == "fr" and solver.calls == 2
        await shared.answer("g", 41, solver)          # another log (not the same game)
        assert solver.calls == 3 and len(shared) == 3

    asyncio.run(main())


@pytest.mark.parametrize("answer", [{"verdict": "rough", "note": "no table yet"},
                                    {"options": [], "message": "Roll first"}])
def test_an_approximate_answer_is_shared_but_not_kept(answer: dict[str, Any]) -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(), Solver(answer, seconds=0.05)
        together = await asyncio.gather(*(shared.answer("g", 9, solver) for _ in range(3)))
        assert solver.calls == 1 and together[0] is together[2]
        await shared.answer("g", 9, solver)
        assert solver.calls == 2 and len(shared) == 0

    asyncio.run(main())


def test_a_game_not_over_is_asked_each_time() -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(), Solver()
        for _ in range(3):
            await shared.answer("g", None, solver)
        assert solver.calls == 3 and len(shared) == 0

    asyncio.run(main())


def test_an_error_goes_to_every_waiting_request_and_is_not_kept() -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(), Solver(seconds=0.05, error=RuntimeError("busy"))
        results = await asyncio.gather(*(shared.answer("g", 9, solver) for _ in range(3)),
                                       return_exceptions=True)
        assert solver.calls == 1 and all(isinstance(r, RuntimeError) for r in results)
        solver.error = None
        assert (await shared.answer("g", 9, solver))["call"] == 2

    asyncio.run(main())


def test_the_least_recently_asked_go_first() -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(kept=2), Solver()
        await shared.answer("a", 1, solver)
        await shared.answer("b", 1, solver)
        await shared.answer("a", 1, solver)            # asked again: now the newest
        await shared.answer("c", 1, solver)            # b goes
        assert solver.calls == 3 and len(shared) == 2
        await shared.answer("a", 1, solver)
        assert solver.calls == 3
        await shared.answer("b", 1, solver)
        assert solver.calls == 4

    asyncio.run(main())


def test_a_request_that_goes_away_leaves_the_call_to_the_others() -> None:
    async def main() -> None:
        shared, solver = SharedAnswers(), Solver(seconds=0.1)
        first = asyncio.ensure_future(shared.answer("g", 9, solver))
        await asyncio.sleep(0.01)
        second = asyncio.ensure_future(shared.answer("g", 9, solver))
        await asyncio.sleep(0.01)
        first.cancel()
        assert (await second)["call"] == 1 and solver.calls == 1
        assert first.cancelled()

    asyncio.run(main())
