"""The server's dice: the kernel's secure bytes read in blocks, each used once, in every
thread and in a forked child as in its parent."""

from __future__ import annotations

import os
import threading
from collections import Counter

import pytest

from shutthebox.dice import roll_dice
from shutthebox.web.play.dice import SecureRandom


def test_dice_are_fair() -> None:
    """600,000 dice: each face within 5 standard deviations of a sixth (chi-square well
    under its 0.1 % point for 5 degrees of freedom)."""
    dice = SecureRandom()
    counts = Counter(dice.randint(1, 6) for _ in range(600_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi_square = sum((n - 100_000) ** 2 / 100_000 for n in counts.values())
    assert chi_square < 20.5, counts


def test_rolls_of_two_dice_take_every_value_with_the_right_odds() -> None:
    dice = SecureRandom(block=64)           # many blocks read
    totals = Counter(sum(roll_dice(dice, 2)) for _ in range(72_000))
    for total in range(2, 13):
        expected = 72_000 * (6 - abs(total - 7)) / 36
        assert abs(totals[total] - expected) < 5 * expected ** 0.5, (total, totals)


@pytest.mark.parametrize("bits", [0, 1, 3, 8, 9, 31, 64, 100])
def test_getrandbits_gives_numbers_of_that_many_bits(bits: int) -> None:
    dice = SecureRandom()
    drawn = [dice.getrandbits(bits) for _ in range(2_000)]
    assert all(0 <= n < 2 ** bits for n in drawn)
    if bits >= 8:      # the top bit is set about half the time
        assert 800 < sum(n >> (bits - 1) for n in drawn) < 1_200


def test_floats_and_bytes_are_in_range() -> None:
    dice = SecureRandom()
    floats = [dice.random() for _ in range(10_000)]
    assert all(0.0 <= f < 1.0 for f in floats) and 0.45 < sum(floats) / 10_000 < 0.55
    assert len(dice.randbytes(10)) == 10 and len(dice.randbytes(5_000)) == 5_000


def test_it_cannot_be_seeded_or_saved() -> None:
    dice = SecureRandom()
    dice.seed(1)
    assert [dice.getrandbits(64) for _ in range(3)] != [dice.getrandbits(64) for _ in range(3)]
    with pytest.raises(NotImplementedError):
        dice.getstate()
    with pytest.raises(NotImplementedError):
        dice.setstate(None)
    with pytest.raises(ValueError, match="non-negative"):
        dice.getrandbits(-1)


def test_threads_sharing_one_source_draw_what_one_thread_would() -> None:
    """Eight threads at once (each byte one ``next``): every draw arrives, and the faces
    stay fair."""
    dice = SecureRandom(block=256)
    drawn: list[list[int]] = [[] for _ in range(8)]

    def draw(into: list[int]) -> None:
        into.extend(dice.randint(1, 6) for _ in range(20_000))

    threads = [threading.Thread(target=draw, args=(into,)) for into in drawn]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = Counter(face for into in drawn for face in into)
    assert sum(counts.values()) == 160_000
    assert all(abs(n - 160_000 / 6) < 5 * (160_000 * 5 / 36) ** 0.5 for n in counts.values())


def test_a_forked_child_draws_bytes_of_its_own() -> None:
    """After ``fork`` the child holds a copy of its parent's unused block: it must not roll
    the parent's next dice."""
    dice = SecureRandom()
    dice.getrandbits(8)                     # a block read and started
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:                          # pragma: no cover (the child)
        os.write(writing, dice.randbytes(32))
        os._exit(0)
    os.close(writing)
    theirs = os.read(reading, 32)
    os.waitpid(child, 0)
    os.close(reading)
    ours = dice.randbytes(32)
    assert len(theirs) == 32 and theirs != ours
