"""The live display of a run: done / running / failed, pace, ETA, success so far, tokens."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from webmdp.runner.scheduler import Tally


def describe(t: Tally, *, price_in: float | None = None, price_out: float | None = None) -> str:
    """One status line: ``running 2 · failed 0 · retries 1 · 12.0 ep/min · ETA 4m10s ·
    success 67% · 12.3k tokens · $0.04``."""
    rate = t.per_minute()
    left = t.total - t.done
    eta = _duration(left / rate * 60) if rate > 0 and left else ("-" if left else "0s")
    parts = [f"running {t.running}", f"infra errors {t.infra_errors}", f"retries {t.retries}",
             f"{rate:.1f} ep/min", f"ETA {eta}"]
    if t.done:
        parts.append(f"success {t.success / t.done:.0%}")
    tokens = t.prompt_tokens + t.completion_tokens
    if tokens:
        parts.append(f"{_count(tokens)} tokens")
        if price_in is not None or price_out is not None:
            cost = (t.prompt_tokens * (price_in or 0) + t.completion_tokens * (price_out or 0))
            parts.append(f"${cost / 1e6:.2f}")
    return " · ".join(parts)


class LiveDisplay:
    """A progress bar with :func:`describe` beside it (stderr; plain lines when not a TTY)."""

    def __init__(self, label: str, console: Console, *, price_in: float | None = None,
                 price_out: float | None = None):
        self.price = (price_in, price_out)
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 TextColumn("{task.fields[status]}"), console=console,
                                 transient=False, refresh_per_second=4)
        self.job = self.progress.add_task(label, total=None, status="starting")

        self._live = False

    def __enter__(self) -> LiveDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live:
            self.progress.stop()

    def update(self, t: Tally) -> None:
        if not self._live:  # started by the first update: a refused run shows no bar
            self._live = True
            self.progress.start()
        self.progress.update(self.job, total=t.total, completed=t.done,
                             status=describe(t, price_in=self.price[0], price_out=self.price[1]))


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _count(n: int) -> str:
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.1f}k" if n >= 1e3 else str(n)
