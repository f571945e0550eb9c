"""The random generator task generation draws worlds with: :class:`random.Random`'s stream,
drawn with fewer Python frames.

World generation calls ``choice``, ``randint`` and ``sample`` hundreds of thousands of times
for the built-in task set, and the standard library spends most of that time in call layers
(``randint`` -> ``randrange`` -> ``_randbelow``; ``sample``'s abstract-base-class check). Every
task is pinned byte for byte (``tests/data/task_hashes.json``), so a faster generator must
return exactly what :class:`random.Random` returns and leave it in exactly the same state.
:class:`TaskRandom` does, by drawing the same ``getrandbits`` calls as the standard library's
rejection sampling; it falls back to the standard method for any argument it does not
special-case, and :func:`task_rng` only uses it after checking it against
:class:`random.Random` on this interpreter (:func:`_agrees`), so a Python whose stream differs
keeps the standard generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from math import ceil, log
from typing import Any, TypeVar

T = TypeVar("T")
_SMALL_SET = 21
"""``random.sample`` draws from a copied pool while the population is at most this (plus a
table size for k > 5) long, else from a set of taken indices (left to the standard method)."""


class TaskRandom(random.Random):
    """:class:`random.Random` with ``choice``, ``randint`` and ``sample`` inlined."""

    def _below(self, n: int) -> int:
        """``_randbelow(n)`` for n > 0: the same ``getrandbits`` draws, rejection included."""
        getrandbits, k = self.getrandbits, n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        n = len(seq)
        if not n:
            return super().choice(seq)  # raises as the standard library does
        return seq[self._below(n)]

    def randint(self, a: int, b: int) -> int:
        if type(a) is not int or type(b) is not int or b < a:
            return super().randint(a, b)
        return a + self._below(b - a + 1)

    def sample(self, population: Sequence[T], k: int, *,  # type: ignore[override]
               counts: Any = None) -> list[T]:
        if counts is not None or type(population) not in (list, tuple, range) \
                or type(k) is not int or not 0 <= k <= len(population):
            return super().sample(population, k, counts=counts)
        n = len(population)
        limit = _SMALL_SET + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0)
        if n > limit:
            return super().sample(population, k)
        pool, out = list(population), []
        for i in range(k):
            j = self._below(n - i)
            out.append(pool[j])
            pool[j] = pool[n - i - 1]
        return out


def task_rng(seed: int) -> random.Random:
    """A generator seeded with ``seed``: a :class:`TaskRandom` where it provably draws the
    standard stream on this interpreter, else a plain :class:`random.Random`."""
    return TaskRandom(seed) if _agrees() else random.Random(seed)


@cache
def _agrees() -> bool:
    """Whether :class:`TaskRandom` gives what :class:`random.Random` gives, value for value
    and state for state, over the argument shapes generation uses."""
    draws: list[Callable[[random.Random], Any]] = [
        lambda r: r.choice("abcdefghij"), lambda r: r.choice((1, 2, 3)),
        lambda r: r.choice([7]), lambda r: r.randint(0, 0), lambda r: r.randint(3, 40),
        lambda r: r.randint(900, 30000), lambda r: r.sample(range(10, 990), 7),
        lambda r: r.sample(list("abcdefgh"), 3), lambda r: r.sample(("x", "y"), 0),
        lambda r: r.sample(range(1, 100), 8), lambda r: r.sample(list(range(30)), 6),
        lambda r: r.random(), lambda r: r.uniform(3.5, 4.9),
    ]
    for seed in range(40):
        fast, slow = TaskRandom(seed), random.Random(seed)
        for _ in range(5):
            for draw in draws:
                if draw(fast) != draw(slow):
                    return False
        if fast.getstate() != slow.getstate():
            return False
    return True
