"""How many worker processes a run may start: at most :data:`WORKERS_PER_CPU` per CPU this
process may use (locally) or Ray reports (a cluster), so a typo such as ``--workers 100000``
is one line, not hundreds of processes on a shared machine."""

from __future__ import annotations

import os

from webmdp.errors import ConfigError

WORKERS_PER_CPU = 4


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask; the CPU count elsewhere)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def check_workers(workers: int, cpus: int | None = None, *, where: str = "this machine") -> None:
    """Refuse more than :data:`WORKERS_PER_CPU` workers per CPU (:class:`ConfigError`)."""
    cpus = usable_cpus() if cpus is None else max(int(cpus), 1)
    bound = WORKERS_PER_CPU * cpus
    if workers > bound:
        raise ConfigError(f"--workers {workers} is more than {bound}, the bound for {cpus} "
                          f"CPU{'s' if cpus != 1 else ''} on {where} ({WORKERS_PER_CPU} per CPU)")
