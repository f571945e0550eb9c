"""Instantiate templates into tasks, check uniqueness and verify each oracle by replay."""

from __future__ import annotations

import os
import threading
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context
from typing import Any

from webmdp.core import dialog
from webmdp.core.model import PAGE_META, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import GenerationError, InvalidAction
from webmdp.tasks.cache import cached_hit, cached_tasks, covers, store_text, tasks_text
from webmdp.tasks.difficulty import measure
from webmdp.tasks.domains import domain_of
from webmdp.tasks.model import ActionModel, Complexity, Task
from webmdp.tasks.replay import replay
from webmdp.tasks.rng import task_rng
from webmdp.tasks.variants import template_of
from webmdp.tasks.verifier import verify

TASKS_PER_SITE = 180
MAX_HARD_NEGATIVES = 3
_ATTEMPTS = 20


def task_seed(site: str, index: int) -> int:
    """The world seed of a task: a stable function of site and index."""
    return zlib.crc32(f"{site}:{index}".encode())


def task_id(site: str, index: int) -> str:
    return f"{site}_{index:04d}"


def plan(site: Site, n: int | None = None) -> list[tuple[int, str, int]]:
    """(index, template, hard-negative count) for a site's task set of ``n`` tasks (default:
    the site's ``task_count``, 180 for webmdp's own): templates in equal blocks, hard-negative
    counts 0..3 cycled so every template and the site see them evenly."""
    n = site.task_count if n is None else n
    names = list(site.templates)
    per = -(-n // len(names))
    return [(i, names[min(i // per, len(names) - 1)], i % (MAX_HARD_NEGATIVES + 1))
            for i in range(n)]


def make_task(site: Site, index: int, template: str, hard_negatives: int,
              catalogue: int | None = None, confirm: bool = False,
              page_size: int | None = None, sparse: bool = False) -> Task:
    """Build, check and oracle-verify one task. Deterministic in (site, index) and the knobs:
    ``template`` (a ``BASE:MODE`` answer variant too), ``hard_negatives``, ``catalogue``
    (at most that many filler entities; ``None``: the template's own count), ``confirm``
    (the site's commit actions behind a confirmation dialog: :mod:`webmdp.core.dialog`) and
    ``page_size`` (results per page on the site's listings, the oracle turning pages to reach
    what it opens; ``None``: the site's own) and ``sparse`` (no filler entities, nor the
    background entities a site draws on its own: ``WorldSpec.sparse``)."""
    tpl = template_of(site, template)
    seed = task_seed(site.name, index)
    tid = task_id(site.name, index)
    for attempt in range(_ATTEMPTS):
        rng = task_rng(seed * 1009 + attempt)  # random.Random's stream, drawn faster
        draft = tpl.draft(site, rng, hard_negatives)
        if catalogue is not None and draft.spec.n_fillers > catalogue:
            draft.spec = replace(draft.spec, n_fillers=catalogue)
        if sparse:
            draft.spec = replace(draft.spec, n_fillers=0, sparse=True)
        world = site.generate_world(draft.spec, rng)
        draft.bind(world)
        if tpl.matches(draft, world) == [draft.target]:
            break
    else:
        raise GenerationError(f"{template}: no world with a unique target", task_id=tid)
    tpl.finish(draft, world, site)
    oracle = tpl.oracle(draft, world, site)
    if confirm:  # dialogs before the actions the site's templates commit with
        commits = sorted({t.commit_action for t in (*site.templates.values(),
                                                    *site.dial_templates.values())} - {""})
        world = World(site=world.site, entities=world.entities,
                      meta={**world.meta, dialog.META: commits})
        oracle = _confirmed(site, world, oracle)
    if page_size is not None:
        world = World(site=world.site, entities=world.entities,
                      meta={**world.meta, PAGE_META: page_size})
        oracle = _paged(site, world, oracle, tid)
    conditions = tpl.verifier(draft, world)
    # One replay, on the world the task stores, feeds the verifier and the difficulty measure
    # (no transition reads the generation-only roles the public world drops).
    public = _public_world(world)
    result = replay(site, public, oracle)
    if result.error is not None:
        raise GenerationError(f"oracle invalid at step {result.error[0]}: {result.error[1]}",
                              task_id=tid)
    verdict = verify(conditions, site.facts(result.final))
    if not all(verdict.values()):
        raise GenerationError(f"oracle fails verifier: {verdict}", task_id=tid)
    fillers = [e for e in world.entities if e not in
               {draft.target, *draft.hard_negatives, *draft.companions}]
    task = Task(
        id=tid, site=site.name, template=template, index=index, seed=seed,
        instruction=draft.instruction, params=draft.params, target=draft.target,
        hard_negatives=draft.hard_negatives, companions=draft.companions, fillers=fillers,
        verifier=conditions, oracle=[ActionModel.of(a) for a in oracle],
        info_constraints=tpl.info_constraints(draft, world, site),
        complexity=Complexity(hard_negative_count=len(draft.hard_negatives),
                              oracle_length=len(oracle),
                              access_level=tpl.access_level(draft, oracle, site)),
        world=public.to_dict(),
    )
    return task.model_copy(update={"difficulty": measure(task, site, public, result.states),
                                   "domain": domain_of(site.name, template),
                                   "answer_type": tpl.answer_type,
                                   "answer": tpl.answer(draft, world)})


def _confirmed(site: Site, world: World, oracle: list[Action]) -> list[Action]:
    """``oracle`` with a ``Confirm`` after each action that opens a dialog in ``world``."""
    state, out = site.initial_state(world), []
    for action in oracle:
        state = site.step(state, action, world)
        out.append(action)
        if state.pending is not None:
            state = site.step(state, Action(dialog.CONFIRM), world)
            out.append(Action(dialog.CONFIRM))
    return out


def _page_turns(world: World) -> Iterator[list[Action]]:
    """Ways to another page, in the order tried: ``GoToPage`` N (most listings), then N
    ``NextPage`` or ``PrevPage`` presses (a mail list has only older / newer)."""
    n = len(world.entities)
    yield from ([Action("GoToPage", {"page": p})] for p in range(1, n + 1))
    for k in range(1, n + 1):
        yield [Action("NextPage")] * k
        yield [Action("PrevPage")] * k


def _paged(site: Site, world: World, oracle: list[Action], tid: str) -> list[Action]:
    """``oracle`` in a world with shorter result pages: before an action that names an entity
    the current page does not list, the first page turn (:func:`_page_turns`) that makes it
    valid. (Page turns keep the listing's order, so the oracle's visits stay in display
    order.)"""
    state, out = site.initial_state(world), []
    for action in oracle:
        try:
            nxt = site.step(state, action, world)
        except InvalidAction as first:
            for turns in _page_turns(world):
                try:
                    turned = state
                    for turn in turns:
                        turned = site.step(turned, turn, world)
                    nxt = site.step(turned, action, world)
                except InvalidAction:
                    continue
                out.extend(turns)
                break
            else:
                raise GenerationError(f"{action.name}: on no page of the listing ({first})",
                                      task_id=tid) from first
        out.append(action)
        state = nxt
    return out


def _public_world(world: World) -> World:
    """Drop generation-only bookkeeping (roles) so a world never names its target."""
    ents = {k: _without_role(e) for k, e in world.entities.items()}
    return World(site=world.site, entities=ents, meta=world.meta)


def _without_role(entity: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``entity`` less its role, the other fields in their order (a copy and a pop
    are cheaper than filtering every field)."""
    out = dict(entity)
    out.pop("role", None)
    return out


def generate_site_tasks(site: Site, n: int | None = None) -> list[Task]:
    """A site's task set of ``n`` tasks (default: its ``task_count``), deterministic. Built
    once per process and site, and read from the disk cache (:mod:`webmdp.tasks.cache`) when
    another process built it: the list is new each call, the tasks are shared (treat them as
    read-only, or ``model_copy`` them)."""
    n = site.task_count if n is None else n
    key = (site.name, type(site), n)
    if key not in _GENERATED:
        def build() -> list[Task]:
            return _build(site, n)

        # webmdp's and installed plugins' sites are keyed by their code; another is not cached
        _GENERATED[key] = cached_tasks(f"{site.name}-{n}", build) if _shipped(site) \
            else tuple(build())
    return list(_GENERATED[key])


def generate_sets(sites: Sequence[Site], n: int | None = None) -> dict[str, list[Task]]:
    """Several sites' task sets (as :func:`generate_site_tasks` gives each). The sets that are
    neither built in this process nor in the disk cache are built in parallel, one worker
    process per site (up to the CPU count), each returning its set as JSONL: the 1,800
    built-in tasks take about half the time on two cores. A process with other threads (a
    server, a test harness) builds them one after another instead: forking it is not safe."""
    count = {s.name: s.task_count if n is None else n for s in sites}
    todo = [s for s in sites if (s.name, type(s), count[s.name]) not in _GENERATED]
    for s in list(todo):
        hit = cached_hit(f"{s.name}-{count[s.name]}") if _shipped(s) else None
        if hit is not None:
            _GENERATED[(s.name, type(s), count[s.name])] = hit
            todo.remove(s)
    workers = min(len(todo), os.cpu_count() or 1)
    shipped = [s for s in todo if _shipped(s)]
    if workers > 1 and len(shipped) > 1 and threading.active_count() == 1:
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            ns = [count[s.name] for s in shipped]
            texts = pool.map(_build_text, [s.name for s in shipped], ns)
            for s, k, text in zip(shipped, ns, texts, strict=True):
                _GENERATED[(s.name, type(s), k)] = store_text(f"{s.name}-{k}", text)
    return {s.name: generate_site_tasks(s, count[s.name]) for s in sites}


def _build(site: Site, n: int) -> list[Task]:
    return [make_task(site, i, tpl, hn) for i, tpl, hn in plan(site, n)]


def _build_text(name: str, n: int) -> str:
    """A worker's job: a registered site's task set, as the cache's JSONL."""
    from webmdp.core.registry import get_site

    return tasks_text(_build(get_site(name), n))


def _shipped(site: Site) -> bool:
    """A site whose code the cache key covers: webmdp's own, or an installed plugin's."""
    return covers(type(site).__module__)


_GENERATED: dict[tuple[str, type, int], tuple[Task, ...]] = {}
