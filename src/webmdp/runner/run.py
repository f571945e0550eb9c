"""One run: check the directory, resume what is missing, schedule, and leave it consistent.

:func:`execute_run` is what ``webmdp run`` calls. In order: the run directory must be writable
with room to spare; its manifest (if any) must describe the same run (agents, mode, trace
settings, task-set hash) unless forced; finished episodes are skipped; the rest go to the
backend through the :class:`Scheduler`; at the end, whatever happened, leftover processes of
the run are swept, the results tables are rebuilt from the traces and the invocation is
recorded in the manifest with its status.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.paths import check_name
from webmdp.runner import manifest as mf
from webmdp.runner.lock import owned
from webmdp.runner.procs import sweep
from webmdp.runner.scheduler import FinalState, Outcome, Pool, Scheduler, Tally
from webmdp.runner.spec import AgentSpec, EpisodeSpec, RunSettings
from webmdp.runner.store import MIN_FREE_MB, RunStore
from webmdp.tasks.codes import check_new_key
from webmdp.tasks.model import Task
from webmdp.trace import Mode


@dataclass
class RunPlan:
    """Everything one invocation needs."""

    root: Path
    tasks: list[Task]
    agents: list[AgentSpec]
    mode: Mode
    settings: RunSettings
    force: bool = False
    rerun: bool = False
    """Run finished episodes again (their traces are replaced)."""
    manifest: bool = True
    """Keep a manifest and refuse to mix runs (the library's ``run_tasks`` runs without)."""
    min_free_mb: int = MIN_FREE_MB
    overrides: tuple[str, ...] = ()
    """Options a resume was given explicitly (recorded in its invocation)."""
    split: dict[str, Any] | None = None
    """The RL split the tasks were drawn from (``split``, ``level``, ``holdout``,
    ``split_version``), recorded in the manifest; None for any other selection."""
    preflight: Callable[[], None] | None = None
    """Checked once before the first episode, when there is one to run (the model
    endpoint's one-token request); raises to stop the run."""

    def identity(self) -> dict[str, Any]:
        agents = sorted((a.identity() for a in self.agents),
                        key=lambda a: (a["name"], a["seed"], str(a["model"])))
        return {"agents": agents, "mode": self.mode,
                **self.settings.identity()}

    def specs(self, finished: set[tuple[str, str, str]]) -> list[EpisodeSpec]:
        final = self.settings.retries == 0
        specs = [EpisodeSpec(a, self.mode, t.id, final=final)
                 for a in self.agents for t in self.tasks]
        return [s for s in specs if s.key not in finished]


def check_names(plan: RunPlan) -> None:
    """Every name that becomes a path (agent label, mode, task id), checked before anything
    is written (:mod:`webmdp.paths`)."""
    for a in plan.agents:
        check_name(a.label(), "agent")
    check_name(plan.mode, "mode")
    for t in plan.tasks:
        check_name(t.id, f"task id (task {t.id[:60]!r})")


def prepare(plan: RunPlan) -> tuple[RunStore, dict[str, Any] | None, list[EpisodeSpec]]:
    """Check the names, the directory and the manifest, store the tasks; the episodes still to
    run."""
    check_names(plan)
    if plan.manifest and mf.read(plan.root) is None:
        check_new_key()  # a new run: its fingerprint must not give the key away
    store = RunStore(plan.root)
    store.check_space(plan.min_free_mb)
    manifest = None
    if plan.manifest:
        manifest = mf.build(plan.identity(), _settings(plan.settings), plan.tasks,
                            browser=plan.mode == "browser", split=plan.split)
        old = mf.read(plan.root)
        if old is not None:
            mf.check_code_key(old, plan.root)
            mf.check_compatible(old, manifest, force=plan.force, tasks=plan.tasks)
            split = (old.get("task_set") or {}).get("split")  # a resume keeps the run's split
            old.update({k: manifest[k] for k in ("identity", "task_set", "settings",
                                                 "webmdp", "git", "packages", "chromium")})
            if split is not None:
                old["task_set"].setdefault("split", split)
            manifest = old
    store.add_tasks(plan.tasks, replace=plan.force)
    store.clean_tmp()
    finished = set() if plan.rerun else store.finished()
    return store, manifest, plan.specs(finished)


def check_pages(task_ids: set[str], tasks: Sequence[Task]) -> None:
    """Before the first browser episode: every site the episodes render has its pages (its
    package's ``views/`` folder). A site package installed without its package data failed
    each episode only after the server's retries; this is one line at once."""
    from webmdp.core.registry import get_site
    from webmdp.sites._common.views import CROSS, site_folder

    sites = sorted({s for t in tasks if t.id in task_ids for s in (t.site, *(t.sites or ()))})
    for site in sites:
        if site_folder(site, "views") is None:
            package = "webmdp.sites.cross" if site == CROSS else get_site(site).package()
            raise ConfigError(f"site {site!r} has no views/ folder in its package {package}: "
                              "its package data was not installed, so browser mode has no "
                              "pages to show (semantic mode needs none; docs/extending.md)")


def execute_run(plan: RunPlan, on_change: Callable[[Tally], None] | None = None,
                on_record: Callable[[dict[str, Any]], None] | None = None) -> Outcome:
    """Run ``plan``; ``on_change`` sees the tally as it moves, ``on_record`` each stored
    episode's summary row. The run directory is this invocation's alone from its first
    write to its end (:mod:`webmdp.runner.lock`): another one is refused, naming the owner."""
    check_names(plan)
    with owned(plan.root):
        return _execute(plan, on_change, on_record)


def _execute(plan: RunPlan, on_change: Callable[[Tally], None] | None,
             on_record: Callable[[dict[str, Any]], None] | None) -> Outcome:
    store, manifest, specs = prepare(plan)
    if specs and plan.mode == "browser":
        check_pages({s.task_id for s in specs}, plan.tasks)
    if specs and plan.preflight is not None:
        plan.preflight()
    invocation = None
    if manifest is not None:
        mf.close_dead_invocations(manifest)
        mf.check_not_running(manifest, plan.root)
        invocation = mf.start_invocation(manifest, _settings(plan.settings))
        if plan.overrides:
            invocation["overrides"] = sorted(plan.overrides)
        mf.write(plan.root, manifest)
    skipped = len(plan.agents) * len(plan.tasks) - len(specs)
    outcome = Outcome("failed", Tally(total=len(specs), skipped=skipped), error="not started")
    try:
        with _server(plan) as addr:
            pool = _pool(plan, addr)
            sched = Scheduler(pool, store, plan.settings, specs, {t.id: t for t in plan.tasks},
                              on_change=on_change, on_record=on_record,
                              min_free_mb=plan.min_free_mb)
            sched.tally.skipped = skipped
            outcome = sched.run()
    finally:
        if plan.settings.backend != "ray":
            sweep(plan.root)
        rows = store.rebuild_tables()
        outcome.final = final_state(plan, rows)
        if manifest is not None and invocation is not None:
            invocation.update(ended=mf._now(), status=outcome.status, episodes=len(rows),
                              run=outcome.tally.done, retries=outcome.tally.retries,
                              infra_errors=outcome.tally.infra_errors, error=outcome.error,
                              episode_s=round(outcome.tally.episode_s, 3))
            mf.write(plan.root, manifest)
    return outcome


def final_state(plan: RunPlan, rows: list[dict[str, Any]]) -> FinalState:
    """How the plan's episodes stand among the stored ``rows``: stored, infra errors and
    their causes."""
    keys = {(a.label(), plan.mode, t.id) for a in plan.agents for t in plan.tasks}
    state = FinalState(episodes=len(keys))
    causes: Counter[str] = Counter()
    for row in rows:
        if (row["agent"], row["mode"], row["task_id"]) not in keys:
            continue
        state.stored += 1
        if row.get("termination") == "infra_error":
            state.infra_errors += 1
            causes[short_cause(row.get("infra_error"))] += 1
    state.causes = dict(causes.most_common())
    return state


def short_cause(cause: str | None) -> str:
    """An infrastructure cause without its per-episode details: its first clause, without
    the attempt count, so that equal causes count together."""
    text = (cause or "unknown cause").split("; then ")[0]
    text = re.sub(r" \(after \d+ attempts\)$", "", text.strip())
    return text if len(text) <= 200 else text[:197] + "..."


def _settings(s: RunSettings) -> dict[str, Any]:
    return {k: v for k, v in asdict(s).items() if k != "extra"}


@contextlib.contextmanager
def _server(plan: RunPlan):  # type: ignore[no-untyped-def]
    """The run's shared server (``--server shared``, browser mode, local backend), else none:
    each worker starts its own."""
    if plan.mode != "browser" or plan.settings.server != "shared" or \
            plan.settings.backend != "local":
        yield None
        return
    from webmdp.server.runner import ServerHandle

    with ServerHandle() as server:
        yield (server.url, server.token)


def _pool(plan: RunPlan, addr: tuple[str, str] | None) -> Pool:
    backend = plan.settings.backend
    if backend == "inline":
        from webmdp.runner.inline_pool import InlinePool

        return InlinePool(plan.root, plan.settings, addr)
    if backend == "local":
        from webmdp.runner.local_pool import LocalPool

        return LocalPool(plan.root, plan.settings, addr)
    from webmdp.runner.ray_pool import RayPool

    return RayPool(plan.root, plan.settings)
