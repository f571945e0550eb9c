"""GUI validation of a site (WebSTEP E.1, levels 1-3).

1. MDP: the conformance checker and every oracle replayed through the transition function.
2. GUI interaction: on every page the oracle sees, a click at the centre of each bound element
   in the viewport dispatches that element's action (no occlusion) and no native ``<select>``
   is used.
3. GUI trajectory replay: every oracle, executed by clicking and typing in Chromium, yields the
   same semantic trace as the MDP replay (action, parameters, resulting state), every action
   changes the state, and the final state passes the verifier.

With real-web noise (``noise``, :mod:`webmdp.env.noise`) the oracle closes the noise in its way
and levels 2 and 3 must hold all the same; an element covered by noise is not a level-2 problem
(the noise is not the site's).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from webmdp.agents.builtin import OracleAgent
from webmdp.conformance import check_site
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import InfrastructureError
from webmdp.runner.episode import run_episode
from webmdp.runner.procs import exit_with_parent, kill_tree
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site, site_names
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

_OCCLUSION_JS = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('#app [data-action]')) {
    if (el.matches('form')) continue;
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
      continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    // hit testing rounds: a centre in the last pixel row hits nothing, as if off screen
    const off = cy < 0 || cy > innerHeight - 1 || cx < 0 || cx > innerWidth - 1;
    if (r.width === 0 || r.height === 0 || off) continue;  // off screen: an agent scrolls first
    const hit = document.elementFromPoint(cx, cy);
    if (hit && hit.closest('[data-webmdp-noise]')) continue;  // env noise, not the site's
    const menu = hit && hit.closest('details[open]');
    if (menu && !menu.contains(el)) continue;  // an open dropdown covers it, as it should
    const bound = hit && hit.closest('[data-action]');
    const same = bound && bound.dataset.action === el.dataset.action
                 && bound.dataset.params === el.dataset.params;
    if (!same) {  // a click at its centre would not dispatch it: name what is there instead
      const named = hit && hit.closest('[data-testid]');
      const by = !hit ? 'nothing' : named ? named.dataset.testid
        : hit.tagName.toLowerCase() + '.' + String(hit.className).split(' ').join('.');
      bad.push([el.dataset.testid, by]);
    }
  }
  return {occluded: bad, selects: document.querySelectorAll('select').length};
}"""


@dataclass
class ValidationReport:
    site: str
    tasks: int = 0
    level1: list[str] = field(default_factory=list)
    level2: list[str] = field(default_factory=list)
    level3: list[str] = field(default_factory=list)
    pages_checked: int = 0

    @property
    def ok(self) -> bool:
        return not (self.level1 or self.level2 or self.level3)


def semantic_signature(trace: EpisodeTrace) -> list[tuple[str, str, str]]:
    return [(t.action, repr(sorted(t.params.items())), t.state_key) for t in trace.transitions()]


class _CheckingOracle(OracleAgent):
    """The oracle, plus a level-2 check on every page it observes."""

    def __init__(self, env: BrowserEnv, report: ValidationReport):
        super().__init__()
        self._env, self._report = env, report

    def act(self, obs):  # type: ignore[no-untyped-def]
        page = self._env.page
        res = page.evaluate(_OCCLUSION_JS)
        self._report.pages_checked += 1
        for tid, by in res["occluded"]:
            self._report.level2.append(f"{self._env.task.id} {page.url}: element {tid} is "
                                       f"occluded by {by}")
        if res["selects"]:
            self._report.level2.append(f"{page.url}: uses a native <select>")
        return super().act(obs)


def validate_site(site_name: str, tasks: list[Task],
                  on_task: Callable[[Task], None] | None = None, *,
                  conformance: bool = True, noise: str = "none",
                  server: ServerHandle | None = None,
                  host: BrowserHost | None = None) -> ValidationReport:
    """Levels 1-3 for ``tasks`` of one site, in this process (one server, one Chromium:
    ``server`` and ``host`` when given, which stay open, else its own);
    ``conformance=False`` leaves out the site-wide checker (a chunk of a parallel run);
    ``noise`` replays under real-web noise."""
    site = get_site(site_name)
    rep = ValidationReport(site_name, tasks=len(tasks))
    # the cross-site MDP is its member sites under a switcher: each member passes the checker
    # on its own (``webmdp check``), and its action set is every site's, which no task covers
    checked = conformance and site_name in site_names(plugins=True)
    rep.level1 = check_site(site).problems if checked else []
    with _opened(server, host) as (server, host):
        for task in tasks:
            sem_env = SemanticEnv(task, agent="oracle")
            expected = run_episode(sem_env, OracleAgent())
            if not expected.success:
                rep.level1.append(f"{task.id}: MDP oracle replay fails the verifier")
            env = BrowserEnv(task, agent="oracle", server=server, host=host,
                             config=BrowserConfig(observation="axtree", noise=noise))
            try:
                got = run_episode(env, _CheckingOracle(env, rep))
            except InfrastructureError as exc:
                rep.level3.append(f"{task.id}: infrastructure error {exc}")
                continue
            finally:
                env.close()
            _compare(task, expected, got, rep)
            if on_task:
                on_task(task)
    rep.level2 = list(dict.fromkeys(rep.level2))
    return rep


@contextlib.contextmanager
def _opened(server: ServerHandle | None,
            host: BrowserHost | None) -> Iterator[tuple[ServerHandle, BrowserHost]]:
    """``server`` and ``host``, each started here (and closed after) when not given."""
    with contextlib.ExitStack() as stack:
        if server is None:
            server = stack.enter_context(ServerHandle())
        if host is None:
            host = stack.enter_context(BrowserHost())
        yield server, host


def _compare(task: Task, expected: EpisodeTrace, got: EpisodeTrace, rep: ValidationReport) -> None:
    if got.infra_error:
        rep.level3.append(f"{task.id}: {got.infra_error}")
        return
    if semantic_signature(got) != semantic_signature(expected):
        rep.level3.append(f"{task.id}: GUI semantic trace differs from the MDP replay: "
                          f"{[t.action for t in got.transitions()]}")
    unchanged = [t.action for t in got.transitions() if not t.changed or t.error]
    if unchanged:
        rep.level3.append(f"{task.id}: actions without a state change: {unchanged}")
    if not got.success:
        rep.level3.append(f"{task.id}: GUI replay fails the verifier {got.verifier}")


CHUNK = 12
"""Tasks per unit of work of a parallel validation: small enough for even progress, large
enough that a worker's server and Chromium start-up is amortised."""


def _validate_chunk(site_name: str, tasks: list[Task], noise: str = "none") -> ValidationReport:
    return validate_site(site_name, tasks, conformance=False, noise=noise)


def _worker_init() -> None:
    """In a validation worker: a Ctrl-C reaches the parent, which stops the workers; a worker
    whose parent is gone (even by ``kill -9``) takes its server, driver and Chromium with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM raises :class:`KeyboardInterrupt` while the block runs (in the main thread),
    so a terminated validation stops its workers as a Ctrl-C does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def validate_sites(tasks: Sequence[Task], workers: int,
                   on_tasks: Callable[[int], None] | None = None, *,
                   noise: str = "none") -> list[ValidationReport]:
    """Levels 1-3 for ``tasks`` (any sites), one report per site in name order. With
    ``workers > 1`` chunks of :data:`CHUNK` tasks run in that many worker processes, each
    with its own server and Chromium; the conformance checker runs once per site here.
    ``on_tasks(n)`` reports progress; ``noise`` replays under real-web noise."""
    by_site: dict[str, list[Task]] = {}
    for t in tasks:
        by_site.setdefault(t.site, []).append(t)
    reports = {name: ValidationReport(name, tasks=len(ts)) for name, ts in sorted(by_site.items())}
    if workers <= 1:  # one server and one Chromium for every site
        with _opened(None, None) as (server, host):
            for name, ts in by_site.items():
                reports[name] = validate_site(name, ts, on_task=(
                    lambda _t: on_tasks(1)) if on_tasks else None, noise=noise,
                    server=server, host=host)
        return list(reports.values())
    for name in reports:
        reports[name].level1 = check_site(get_site(name)).problems
    chunks = [(name, ts[i:i + CHUNK]) for name, ts in by_site.items()
              for i in range(0, len(ts), CHUNK)]
    ctx = multiprocessing.get_context("spawn")  # no inherited Playwright or server threads
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init)
    try:
        with _sigterm_interrupts():
            pending: dict[Future[ValidationReport], tuple[str, list[Task]]] = {
                pool.submit(_validate_chunk, name, chunk, noise): (name, chunk)
                for name, chunk in chunks}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    name, chunk = pending.pop(fut)
                    part, whole = fut.result(), reports[name]
                    whole.level1 += part.level1
                    whole.level2 = list(dict.fromkeys(whole.level2 + part.level2))
                    whole.level3 += part.level3
                    whole.pages_checked += part.pages_checked
                    if on_tasks:
                        on_tasks(len(chunk))
    except BaseException:  # interrupted or failed: no worker, server or Chromium left behind
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            kill_tree(proc.pid)
        raise
    pool.shutdown()
    return list(reports.values())
