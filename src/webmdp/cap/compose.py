"""Cross-site tasks composed from single-site tasks (CAP §3.2-3.4), exact by construction.

A cross-site task is an information-flow DAG over 2-4 sites in one of CAP's five primitive
patterns (Appendix E) or a combination of two. Each node is a task on one site, taken from the
site's generated task set with its world, oracle and verifier; an edge carries a typed value
(:mod:`webmdp.cap.ports`): the source task's target shows it, the consuming task's message must
state it. A parallel pattern ends in a final answer comparing two values. Sites are drawn by
CAP's cluster sampling (:mod:`webmdp.cap.clusters`): the least-used cluster anchors the task
and clusters with affinity above eta join, least co-occurring first.

Everything is deterministic in the task index: the same index gives the same task, byte for
byte. The composed oracle opens each site from the switcher and replays that site's oracle
(with the carried values in its message); it is replayed on the cross-site MDP and must pass
the composed verifier before a task is kept.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from webmdp.cap.clusters import CLUSTERS, Usage, affinity_matrix, anchor, expand
from webmdp.cap.ports import Sink, carried, find_sink, sink_conditions
from webmdp.core.model import World
from webmdp.core.registry import get_site, site_names
from webmdp.errors import GenerationError
from webmdp.sites.cross.site import NAME, OPEN_SITE, compose_world
from webmdp.tasks.answers import normalise
from webmdp.tasks.cache import cached_tasks
from webmdp.tasks.conditions import Condition
from webmdp.tasks.generate import generate_sets, generate_site_tasks
from webmdp.tasks.model import (
    ActionModel,
    Complexity,
    CoveredPoint,
    CrossInfo,
    DagStep,
    InfoConstraint,
    Port,
    Task,
)
from webmdp.tasks.outputs import find_output, noun
from webmdp.tasks.replay import replay
from webmdp.tasks.verifier import verify

SUITE = "cross-site"
DEFAULT_COUNT = 350


@dataclass(frozen=True)
class Pattern:
    """Nodes in topological order, edges (a value flows), and the nodes whose values a final
    answer compares (parallel)."""

    name: str
    nodes: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    compared: tuple[str, ...] = ()

    def consumers(self, node: str) -> list[str]:
        return [b for a, b in self.edges if a == node]

    def producers(self, node: str) -> list[str]:
        return [a for a, b in self.edges if b == node]

    def role(self, node: str) -> tuple[bool, bool, bool]:
        """(outputs a value, takes values in, its value must be money)."""
        out = bool(self.consumers(node)) or node in self.compared
        return out, bool(self.producers(node)), node in self.compared


PATTERNS: tuple[Pattern, ...] = (
    Pattern("sequential", ("A", "B"), (("A", "B"),)),
    Pattern("parallel", ("A", "B"), (), ("A", "B")),
    Pattern("fan-out", ("A", "B", "C"), (("A", "B"), ("A", "C"))),
    Pattern("fan-in", ("A", "B", "C"), (("A", "C"), ("B", "C"))),
    Pattern("chain", ("A", "B", "C"), (("A", "B"), ("B", "C"))),
    Pattern("chain+fan-out", ("A", "B", "C", "D"), (("A", "B"), ("B", "C"), ("A", "D"))),
    Pattern("fan-in+fan-out", ("A", "B", "C", "D"), (("A", "C"), ("B", "C"), ("A", "D"))),
)
"""CAP's five primitives (Appendix E) and two combinations that reach four sites."""
PATTERN_NAMES = tuple(p.name for p in PATTERNS)


@dataclass(frozen=True)
class Candidate:
    """A single-site task with what it can do in a DAG."""

    task: Task
    output: Port | None
    sink: Sink | None


@cache
def candidates(site: str) -> tuple[Candidate, ...]:
    """Every task of the site's generated set, with its output and sink (if any)."""
    out = []
    for t in generate_site_tasks(get_site(site)):
        sink = find_sink(t)
        out.append(Candidate(t, find_output(t, (sink.text,) if sink else ()), sink))
    return tuple(out)


def _fits(c: Candidate, role: tuple[bool, bool, bool]) -> bool:
    outputs, takes, money = role
    if outputs and (c.output is None or (money and c.output.type != "money")):
        return False
    return not takes or c.sink is not None


@cache
def _can(site: str, role: tuple[bool, bool, bool]) -> bool:
    return any(_fits(c, role) for c in candidates(site))


def assign_sites(pattern: Pattern, usage: Usage, m: dict[tuple[str, str], float],
                 sites: tuple[str, ...]) -> dict[str, str] | None:
    """Node -> site by CAP's sampling: the least-used site that can play some node anchors
    (eq. 1); the other nodes take sites whose affinity with the anchor exceeds eta, least
    co-occurring first (:func:`expand`). None when no anchor works."""
    tried: set[str] = set()
    while len(tried) < len(sites):
        a = anchor(usage, [s for s in sites if s not in tried])
        tried.add(a)
        ranked = expand(a, len(sites), usage, m, allowed=sites)[1:]
        for node in pattern.nodes:
            if not _can(a, pattern.role(node)):
                continue
            chosen = {node: a}
            for other in pattern.nodes:
                if other == node:
                    continue
                pick = next((s for s in ranked if s not in chosen.values()
                             and _can(s, pattern.role(other))), None)
                if pick is None:
                    break
                chosen[other] = pick
            if len(chosen) == len(pattern.nodes):
                return {n: chosen[n] for n in pattern.nodes}
    return None


PointsOf = Callable[[str, Task], list[CoveredPoint]]


def generate_cross_tasks(n: int = DEFAULT_COUNT, *, points_of: PointsOf | None = None
                         ) -> list[Task]:
    """The first ``n`` cross-site tasks (deterministic; the i-th never depends on ``n``)."""
    key = (n, points_of)
    if key not in _GENERATED:
        def build() -> list[Task]:
            from webmdp.cap.points import covered_points

            points = points_of or covered_points
            generate_sets([get_site(s) for s in site_names()])  # the members, in parallel
            m = affinity_matrix()
            usage = Usage()
            used: Counter[str] = Counter()
            out = []
            sites = tuple(s for s in site_names() if s in CLUSTERS)
            for i in range(n):
                pattern = PATTERNS[i % len(PATTERNS)]
                assignment = assign_sites(pattern, usage, m, sites)
                if assignment is None:  # pragma: no cover (the declared M always has one)
                    raise GenerationError(f"no sites for pattern {pattern.name}",
                                          task_id=cross_id(i))
                usage.record(assignment.values())
                out.append(make_cross_task(i, pattern, assignment, used, points))
            return out

        # the default points (the site cards) are part of the package: the disk cache holds them
        _GENERATED[key] = cached_tasks(f"{SUITE}-{n}", build) if points_of is None \
            else tuple(build())
    return list(_GENERATED[key])


_GENERATED: dict[tuple[int, PointsOf | None], tuple[Task, ...]] = {}


def cross_id(index: int) -> str:
    return f"{SUITE}_{index:04d}"


def make_cross_task(index: int, pattern: Pattern, sites: dict[str, str], used: Counter[str],
                    points_of: PointsOf) -> Task:
    """Pick a task per node (least used first among those that fit, then by a seeded draw),
    carry the values and build, replay and check the cross-site task."""
    tid = cross_id(index)
    seed = zlib.crc32(f"{SUITE}:{index}".encode())
    rng = random.Random(seed)
    picked: dict[str, Candidate] = {}
    for node in pattern.nodes:
        pool = [c for c in candidates(sites[node]) if _fits(c, pattern.role(node))]
        least = min(used[c.task.id] for c in pool)
        fresh = [c for c in pool if used[c.task.id] == least]
        rest = [c for c in pool if used[c.task.id] != least]
        for c in rng.sample(fresh, len(fresh)) + rng.sample(rest, len(rest)):
            if _compatible(c, node, pattern, picked):
                picked[node] = c
                break
        else:
            raise GenerationError(f"no {sites[node]} task fits step {node} of {pattern.name} "
                                  "without its instruction stating a value that flows",
                                  task_id=tid)
        used[picked[node].task.id] += 1
    return build(tid, seed, pattern, picked, points_of)


def _compatible(c: Candidate, node: str, pattern: Pattern, picked: dict[str, Candidate]) -> bool:
    """No step's instruction (nor a consumer's message) may already state a value that flows:
    the value must come from the page."""
    from webmdp.tasks.answers import mentions

    flows = {n: p.output for n, p in picked.items() if pattern.role(n)[0] and p.output}
    if pattern.role(node)[0] and c.output is not None and any(
            mentions(c.output.value, p.task.instruction) for p in picked.values()):
        return False
    for out in flows.values():
        if out is not None and mentions(out.value, c.task.instruction):
            return False
    return not (c.sink is not None and any(
        out is not None and mentions(out.value, c.sink.text) for out in flows.values()))


def build(tid: str, seed: int, pattern: Pattern, picked: dict[str, Candidate],
          points_of: PointsOf) -> Task:
    step_of = {node: f"s{k + 1}" for k, node in enumerate(pattern.nodes)}
    titles = {n: get_site(c.task.site).title for n, c in picked.items()}
    oracle: list[ActionModel] = []
    verifier: list[Condition] = []
    info: list[InfoConstraint] = []
    lines: list[str] = []
    dag: list[DagStep] = []
    for k, node in enumerate(pattern.nodes):
        c = picked[node]
        site = c.task.site
        ports = [_port(picked[p]) for p in pattern.producers(node)]
        actions = [a.model_copy() for a in c.task.oracle]
        conds = list(c.task.verifier)
        goal = c.task.instruction
        if ports:
            assert c.sink is not None
            params = dict(actions[c.sink.index].params)
            params[c.sink.param] = carried(c.sink.text, ports)
            actions[c.sink.index] = ActionModel(name=actions[c.sink.index].name, params=params)
            conds = sink_conditions(c.task, c.sink, ports)
            goal += " " + _include(pattern, node, picked, step_of)
        if pattern.role(node)[0] and c.output is not None:
            goal += f" Find out the {_what(c)}."
        lines.append(f"{k + 1}. On {titles[node]}: {goal}")
        oracle.append(ActionModel(name=OPEN_SITE, params={"site": site}))
        oracle.extend(ActionModel(name=f"{site}.{a.name}", params=a.params) for a in actions)
        verifier.extend(Condition(fact=f"{site}.{x.fact}", op=x.op, value=x.value,
                                  description=f"{site}: {x.description or x.fact}")
                        for x in conds)
        info.extend(c.task.info_constraints)
        out = c.output if pattern.role(node)[0] else None
        if out is not None and not any(i.entity == out.entity and i.field == out.field
                                       for i in info):
            info.append(InfoConstraint(entity=out.entity, field=out.field, level="detail",
                                       description=f"find the {_what(c)}"))
        dag.append(DagStep(id=step_of[node], site=site, base_task=c.task.id,
                           goal=c.task.instruction, output=out,
                           inputs=[step_of[p] for p in pattern.producers(node)]))
    answer = None
    if pattern.compared:
        a, b = (picked[x] for x in pattern.compared)
        assert a.output is not None and b.output is not None
        lower = min((a.output, b.output), key=lambda p: float(normalise(p.value)))
        answer = lower.value
        lines.append(f"Then tell me which is lower, the {_what(a)} (step "
                     f"{step_of[pattern.compared[0]][1:]}) or the {_what(b)} (step "
                     f"{step_of[pattern.compared[1]][1:]}): answer with that amount.")
    worlds = {c.task.site: World.from_dict(c.task.world) for c in picked.values()}
    world = compose_world(worlds)
    site_list = [picked[n].task.site for n in pattern.nodes]
    instruction = ("Please help me with this across my sites (use the start page and the "
                   "site switcher to move between them).\n" + "\n".join(lines))
    covered = [p for n in pattern.nodes for p in points_of(picked[n].task.site, picked[n].task)]
    base = [picked[n].task for n in pattern.nodes]
    task = Task(
        id=tid, site=NAME, template=pattern.name, index=int(tid.rsplit("_", 1)[1]), seed=seed,
        instruction=instruction,
        params={"steps": {step_of[n]: picked[n].task.id for n in pattern.nodes}},
        target=base[-1].target, hard_negatives=[h for t in base for h in t.hard_negatives],
        companions=[x for t in base for x in t.companions],
        fillers=[f for t in base for f in t.fillers], verifier=verifier, oracle=oracle,
        info_constraints=info,
        complexity=Complexity(
            hard_negative_count=sum(t.complexity.hard_negative_count for t in base),
            oracle_length=len(oracle),
            access_level=max((t.complexity.access_level for t in base), key=_ACCESS.index)),
        answer_type="direct" if answer is not None else None, answer=answer,
        world=world.to_dict(), sites=site_list,
    )
    from webmdp.cap.rubric import rubric_for

    cross = CrossInfo(
        pattern=pattern.name, dag=dag,
        edges=[(step_of[a], step_of[b]) for a, b in pattern.edges] + [
            (step_of[x], "answer") for x in pattern.compared],
        clusters=[CLUSTERS[s] for s in site_list],
        functions=_functions(base), covered=covered,
        rubric=rubric_for(task, dag, covered, pattern.consumers, step_of, answer))
    task = task.model_copy(update={"cross": cross})
    check_oracle(task)
    return task


_ACCESS = ["card", "filter", "detail"]


def _port(c: Candidate) -> Port:
    assert c.output is not None
    return c.output


def _what(c: Candidate) -> str:
    assert c.output is not None
    return f"{noun(c.task.site, _entity(c.task, c.output.entity))}'s {c.output.label}"


def _entity(task: Task, eid: str) -> dict:
    return next(e for e in task.world["entities"] if e["id"] == eid)


def _include(pattern: Pattern, node: str, picked: dict[str, Candidate],
             step_of: dict[str, str]) -> str:
    parts = [f"the {_what(picked[p])} from step {step_of[p][1:]}"
             for p in pattern.producers(node)]
    return "In that message, also include " + " and ".join(parts) + "."


def _functions(tasks: list[Task]) -> list[str]:
    """CAP's functions F a task uses: each step's site and what its task does (the commit's
    skill)."""
    out = []
    for t in tasks:
        site = get_site(t.site)
        commits = [a for a in t.oracle if site.action_spec(a.name).changes_state]
        skill = site.action_spec(commits[-1].name).skill if commits else "information_lookup"
        out.append(f"{t.site}:{skill}")
    return out


def check_oracle(task: Task) -> None:
    """Replay the composed oracle on the cross-site MDP; it must pass the verifier."""
    site = get_site(NAME)
    result = replay(site, World.from_dict(task.world), task.oracle_actions())
    if result.error is not None:
        raise GenerationError(f"cross-site oracle invalid at step {result.error[0]}: "
                              f"{result.error[1]}", task_id=task.id)
    verdict = verify(task.verifier, site.facts(result.final))
    if not all(verdict.values()):
        failed = [k for k, v in verdict.items() if not v]
        raise GenerationError(f"cross-site oracle fails its verifier: {failed[:3]}",
                              task_id=task.id)


def base_tasks(task: Task) -> list[Task]:
    """The single-site tasks a cross-site task was composed of, in DAG order."""
    if task.cross is None:
        return []
    out = []
    for step in task.cross.dag:
        site_tasks = {t.id: t for t in generate_site_tasks(get_site(step.site))}
        out.append(site_tasks[step.base_task])
    return out
