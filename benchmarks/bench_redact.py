"""Cost of scrubbing: one compiled pattern over every form of every registered secret
(webmdp.redact). Prints, for 1 MB of ordinary text and 1 MB of base64, the time of
``scrub`` with 1 and 10 secrets registered against a baseline measured in the same run: one
regex pass of a literal that never occurs over the same text.

    python benchmarks/bench_redact.py
"""

from __future__ import annotations

import base64
import random
import re
import string
import time

from webmdp.redact import register, scrub


def _best(fn, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    rnd = random.Random(3)
    text = "".join(rnd.choice(string.ascii_letters + string.digits + ' ,:{}"\n')
                   for _ in range(1_000_000))
    b64 = base64.b64encode(rnd.randbytes(750_000)).decode()
    never = re.compile(re.escape("\x00never\x00"))
    registered = 0
    for n in (1, 10):
        for k in range(registered, n):
            register(f"sk-bench-{k:02d}-" + "".join(rnd.choice(string.ascii_letters)
                                                   for _ in range(24)))
        registered = n
        for name, data in (("text", text), ("base64", b64)):
            scrub("warm")  # compiles the pattern for this set of secrets
            base = _best(lambda d=data: never.search(d))
            took = _best(lambda d=data: scrub(d))
            print(f"{name:6} 1 MB, {n:2d} secrets: scrub {took * 1000:7.1f} ms  "
                  f"{took / base:6.1f}x one regex pass")


if __name__ == "__main__":
    main()
