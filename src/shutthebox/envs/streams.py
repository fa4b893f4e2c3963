"""The environments' dice: a counter-based stream, so one game rolls the same dice whether it
is played alone (:class:`~shutthebox.envs.single.ShutTheBoxEnv`) or as one of N
(:class:`~shutthebox.envs.vector.ShutTheBoxVectorEnv`).

An environment seeded with ``s`` draws its *stream* from ``gymnasium.utils.seeding``'s
generator for ``s`` (the env's ``np_random``); the ``k``-th roll of its ``e``-th episode is
``splitmix64(episode_key(stream, e) + k)``: one die shows ``bits % 6 + 1``, the second
``(bits >> 32) % 6 + 1``. The compiled twin of these lines is in :mod:`shutthebox.envs.vector`.

>>> key = episode_key(12345, 0)
>>> [roll_faces(key, k, 2) for k in range(3)]
[(1, 6), (3, 4), (4, 5)]
"""

from __future__ import annotations

import numpy as np

from shutthebox.dice import Roll

MASK64 = 0xFFFFFFFFFFFFFFFF
STREAM_LIMIT = 1 << 63


def splitmix64(x: int) -> int:
    """The splitmix64 mixer (Steele, Lea and Flood 2014), on Python ints."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def draw_stream(np_random: np.random.Generator) -> int:
    """A new stream from an environment's generator."""
    return int(np_random.integers(0, STREAM_LIMIT))


def episode_key(stream: int, episode: int) -> int:
    """The key of one episode of a stream."""
    return splitmix64((stream + splitmix64(episode)) & MASK64)


def roll_faces(key: int, count: int, dice: int) -> Roll:
    """The ``count``-th roll of ``dice`` dice of an episode, lowest face first."""
    bits = splitmix64((key + count) & MASK64)
    first = bits % 6 + 1
    if dice == 1:
        return (first,)
    second = (bits >> 32) % 6 + 1
    return (first, second) if first <= second else (second, first)
