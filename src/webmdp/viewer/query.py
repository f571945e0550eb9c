"""The task list's state: filters, the agents shown and the page, parsed from and written back
to a query string, so every list the viewer shows is a URL that can be pasted to a colleague.

Task filters (site, template, hard negatives, access level, oracle length, text) keep a task;
episode filters (outcome, infrastructure errors, disagreement, bifurcation kind) keep a task
when one of the shown agents' episodes on it matches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any
from urllib.parse import urlencode

from webmdp.eval.aggregate import length_bucket
from webmdp.viewer.index import EpisodeRef, RunIndex, TaskRef

PAGE_SIZES = (25, 50, 100, 200)
MAX_PAGE = 1000
OUTCOMES = ("success", "failure", "error")
INFRA = ("only", "exclude")


@dataclass(frozen=True)
class TaskQuery:
    """One task-list view; the defaults are the unfiltered first page."""

    site: str = ""
    template: str = ""
    agent: tuple[str, ...] = ()
    outcome: str = ""
    hn: str = ""
    access: str = ""
    olen: str = ""
    infra: str = ""
    disagree: bool = False
    common: bool = False
    bif: str = ""
    q: str = ""
    page: int = 1
    per: int = 50

    @classmethod
    def parse(cls, params: Mapping[str, Any], getlist: Callable[[str], list[str]],
              per: int = 50) -> TaskQuery:
        """From request parameters; unknown choices are dropped rather than refused, so an
        old link still opens (with fewer filters)."""
        def one(name: str, allowed: Sequence[str] | None = None) -> str:
            v = str(params.get(name) or "").strip()
            return v if allowed is None or v in allowed else ""

        def flag(name: str) -> bool:
            return one(name) in ("1", "on", "true")

        def number(name: str, default: int) -> int:
            try:
                return max(1, int(params.get(name) or default))
            except ValueError:
                return default
        size = number("per", per)
        return cls(site=one("site"), template=one("template"),
                   agent=tuple(dict.fromkeys(a for a in getlist("agent") if a)),
                   outcome=one("outcome", OUTCOMES), hn=one("hn"), access=one("access"),
                   olen=one("olen"), infra=one("infra", INFRA),
                   disagree=flag("disagree"), common=flag("common"), bif=one("bif"), q=one("q"),
                   page=number("page", 1), per=min(size, MAX_PAGE))

    def params(self, **changes: Any) -> list[tuple[str, str]]:
        """The non-default fields as query pairs (``page`` reset to 1 unless given)."""
        q = replace(self, **({"page": 1} | changes))
        out: list[tuple[str, str]] = []
        for f in fields(q):
            v = getattr(q, f.name)
            if v == f.default:
                continue
            if f.name == "agent":
                out += [("agent", a) for a in v]
            else:
                out.append((f.name, "1" if v is True else str(v)))
        return out

    def url(self, **changes: Any) -> str:
        """This view's URL with ``changes`` applied."""
        pairs = self.params(**changes)
        return "/" + ("?" + urlencode(pairs) if pairs else "")

    @property
    def filtered(self) -> bool:
        return bool(self.params(page=1, per=self.per))


@dataclass(frozen=True)
class TaskRow:
    """One task and one cell per shown agent (None: no episode of that agent)."""

    task: TaskRef
    cells: list[EpisodeRef | None]


@dataclass(frozen=True)
class TaskPage:
    rows: list[TaskRow]
    agents: list[str]
    total: int
    episodes: int
    page: int
    pages: int


def _task_ok(t: TaskRef, q: TaskQuery) -> bool:
    needle = q.q.lower()
    return ((not q.site or t.site == q.site) and (not q.template or t.template == q.template)
            and (not q.hn or str(t.hard_negatives) == q.hn)
            and (not q.access or t.access_level == q.access)
            and (not q.olen or length_bucket(t.oracle_length) == q.olen)
            and (not needle or needle in t.id.lower() or needle in t.instruction.lower()))


def _episodes_ok(eps: Sequence[EpisodeRef], q: TaskQuery,
                 bifurcated: set[tuple[str, str, str]] | None) -> bool:
    if not eps:
        return False
    if q.outcome and not any(e.outcome == q.outcome for e in eps):
        return False
    if q.infra == "only" and not any(e.outcome == "error" for e in eps):
        return False
    if q.infra == "exclude" and any(e.outcome == "error" for e in eps):
        return False
    if q.disagree and len({e.outcome for e in eps if e.outcome != "error"}) < 2:
        return False
    return bifurcated is None or any(e.key in bifurcated for e in eps)


def select(index: RunIndex, q: TaskQuery,
           bifurcated: set[tuple[str, str, str]] | None = None) -> TaskPage:
    """The page of tasks ``q`` asks for, with a column per shown agent that has an episode on
    one of the matching tasks (any page). ``bifurcated``: the episodes whose bifurcation kind
    is ``q.bif`` (the analysis knows them), or None when ``q.bif`` is not set."""
    shown = set(q.agent) if q.agent else set(index.agents)
    kept: list[tuple[TaskRef, list[EpisodeRef]]] = []
    for task_id, eps in index.by_task.items():
        t = index.tasks[task_id]
        if q.common and task_id not in index.common:
            continue
        mine = [e for e in eps if e.label in shown]
        if _task_ok(t, q) and _episodes_ok(mine, q, bifurcated):
            kept.append((t, mine))
    present = {e.label for _, mine in kept for e in mine}
    agents = [a for a in index.agents if a in present]
    pages = max(1, -(-len(kept) // q.per))
    page = min(q.page, pages)
    rows = []
    for t, mine in kept[(page - 1) * q.per: page * q.per]:
        by_label = {e.label: e for e in mine}
        rows.append(TaskRow(t, [by_label.get(a) for a in agents]))
    return TaskPage(rows, agents, len(kept), sum(len(m) for _, m in kept), page, pages)
