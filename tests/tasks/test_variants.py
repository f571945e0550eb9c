"""The dial's knobs beyond templates and hard negatives: WebForge's Direct and Mixed answer
types and a calculation, as variants of any site's template, and a small catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from webmdp.agents.builtin import OracleAgent
from webmdp.core.model import World
from webmdp.core.registry import site_names
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.errors import GenerationError
from webmdp.forge.pipeline import plan_cells
from webmdp.runner.episode import run_episode
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import dial
from webmdp.tasks.answers import matches, mentions
from webmdp.tasks.codes import gold_code
from webmdp.tasks.dial import DIAL_BASE, resolve, segments, stream
from webmdp.tasks.generate import make_task
from webmdp.tasks.model import Task
from webmdp.tasks.replay import replay
from webmdp.tasks.variants import template_of
from webmdp.tasks.verifier import verify

CASES = [("shopping", "find_product_extract"), ("mail", "email_reply_to_address"),
         ("repo", "fork_default_branch"), ("calendar", "reply_by_organizer"),
         ("jobs", "apply_remote_with_skill"), ("qa", "bookmark_by_environment")]


def _pair(site: str, template: str, mode: str, index: int = 20_000) -> tuple[Task, Task]:
    s = get_site(site)
    for i in range(index, index + 8):  # the first world whose oracle shows a field to ask for
        try:
            return make_task(s, i, template, 1), make_task(s, i, f"{template}:{mode}", 1)
        except GenerationError:
            continue
    raise AssertionError(f"no {mode} variant of {site}/{template}")


@pytest.mark.parametrize(("site", "template"), CASES)
def test_direct_variant_reports_a_field_and_changes_nothing(site: str, template: str) -> None:
    base, task = _pair(site, template, "direct")
    s = get_site(site)
    assert (task.template, task.answer_type, task.verifier) == (f"{template}:direct", "direct",
                                                                [])
    assert task.world == base.world and task.target == base.target  # the same draft
    assert task.domain == base.domain
    # the oracle is the base oracle up to its first commit, and commits nothing
    n = len(task.oracle)
    assert task.oracle == base.oracle[:n] and n < len(base.oracle)
    assert not any(s.action_spec(a.name).changes_state for a in task.oracle)
    assert task.difficulty is not None and task.difficulty.measures["risk"] == "reversible"
    # the answer is a field of the target the oracle shows, asked for, not stated
    field = task.params["asked_field"]
    entity = next(e for e in task.world["entities"] if e["id"] == task.target)
    assert matches(task.answer, str(entity[field]))
    assert not mentions(task.answer, task.instruction)
    assert f'"{base.instruction}"' in task.instruction
    assert any((c.entity, c.field) == (task.target, field) for c in task.info_constraints)


@pytest.mark.parametrize(("site", "template"), CASES[:3])
def test_mixed_variant_keeps_the_task_and_adds_the_answer(site: str, template: str) -> None:
    base, task = _pair(site, template, "mixed")
    assert task.answer_type == "mixed" and task.answer
    assert (task.oracle, task.verifier) == (base.oracle, base.verifier)
    assert task.instruction.startswith(base.instruction)
    final = replay(get_site(site), World.from_dict(task.world), task.oracle_actions()).final
    assert all(verify(task.verifier, get_site(site).facts(final)).values())


def test_calc_variant_needs_arithmetic() -> None:
    s = get_site("housing")
    task = next(make_task(s, i, "cheapest_under_hoa:calc", 0) for i in range(20_000, 20_001))
    k = task.params["calc_factor"]
    price = next(e for e in task.world["entities"] if e["id"] == task.target)["price"]
    assert matches(task.answer, f"${k * price:,.2f}") and f"{k} times" in task.instruction
    assert task.difficulty is not None and task.difficulty.of("reasoning") >= 2
    assert template_of(s, "cheapest_under_hoa:calc").adds_computation == "arithmetic"
    with pytest.raises(KeyError, match="variants: direct, mixed, calc"):
        template_of(s, "cheapest_by_city:tripled")


def test_variants_are_solved_by_the_oracle_and_not_by_greedy(tmp_path: Path) -> None:
    tasks = [_pair(s, t, m)[1] for (s, t), m in zip(CASES[:3], ("direct", "mixed", "direct"),
                                                   strict=True)]
    oracle = run_tasks(tasks, tmp_path / "o", RunConfig(agent="oracle"))
    assert [r.success for r in oracle] == [True, True, True]
    assert oracle[0].final_answer == tasks[0].answer
    assert oracle[1].final_answer == f"{tasks[1].answer}; {gold_code(tasks[1])}"
    greedy = run_tasks(tasks, tmp_path / "g", RunConfig(agent="greedy"))
    assert not any(r.success for r in greedy)  # greedy never states the value


def test_a_direct_variant_in_chromium(server: ServerHandle, host: BrowserHost) -> None:
    _, task = _pair("repo", "fork_default_branch", "direct")
    env = BrowserEnv(task, agent="oracle", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    try:
        trace = run_episode(env, OracleAgent())
    finally:
        env.close()
    assert trace.success and trace.final_answer == task.answer
    assert [t.action for t in trace.transitions()] == [a.name for a in task.oracle_actions()]


def test_small_catalogue_has_no_fillers_and_shorter_lists() -> None:
    s = get_site("shopping")
    full = make_task(s, 20_000, "cheapest_filter_sort", 1)
    small = make_task(s, 20_000, "cheapest_filter_sort", 1, catalogue=0)
    # only the entities the template pins (target, hard negatives, the ones it ranks against)
    assert len(small.world["entities"]) < 8 < len(full.world["entities"])
    assert small.target in {e["id"] for e in small.world["entities"]}
    assert small.difficulty is not None and full.difficulty is not None
    assert small.difficulty.measures["breadth"] < full.difficulty.measures["breadth"]
    assert small.difficulty.measures["info"] <= full.difficulty.measures["info"]


def test_stream_segments_turn_the_knobs_and_names_resolve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dial, "SCAN", 48)  # every segment, in a fifth of the candidates
    site = get_site("repo")
    segs = segments(site)
    assert [g.name for g in segs] == ["templates", "small-catalogue", "answers",
                                      "answers-small-catalogue", "confirm-dialogs",
                                      "small-pages", "lookups", "commits"]
    assert segs[1].catalogue == segs[3].catalogue == 0 and segs[0].catalogue is None
    assert segs[5].page_size == dial.SMALL_PAGE and segs[0].page_size is None
    assert segs[6].sparse and segs[6].scan == 3 * dial.SCAN and not segs[5].sparse
    assert segs[7].sparse and segs[7].confirm and segs[7].page_size == dial.SMALL_PAGE
    assert "watch_named_repo" in segs[7].templates  # a dial template naming the segment...
    assert all("watch_named_repo" not in g.templates for g in segs[:7])  # ...is only there
    picked: dict[int, Task] = {}
    for task in stream(site):  # the first task of each segment but the last
        picked.setdefault((task.index - DIAL_BASE) // dial.SCAN, task)
        if len(picked) == len(segs) - 1:
            break
    assert sorted(picked) == [0, 1, 2, 3, 4, 5, 6]
    assert [":" in picked[k].template for k in range(7)] == [False, False, True, True, False,
                                                            False, True]
    assert picked[6].template.endswith(":lookup") and picked[6].verifier == []
    assert "Confirm" in [a.name for a in picked[4].oracle_actions()]
    # the last segment starts after the lookups' three scans (built here, not through the
    # stream, whose lookups are the slowest candidates to make)
    k, (seg, name, hn) = next((k, c) for k, c in enumerate(dial._candidates(site))
                              if c[0].name == "commits")
    assert k == 9 * dial.SCAN
    last = make_task(site, DIAL_BASE + k, name, hn, catalogue=seg.catalogue, confirm=True,
                     page_size=seg.page_size, sparse=True)
    assert "Confirm" in [a.name for a in last.oracle_actions()]
    assert last.world["meta"]["page_size"] == dial.SMALL_PAGE
    assert picked[5].world["meta"]["page_size"] == dial.SMALL_PAGE
    assert len(picked[1].world["entities"]) < len(picked[0].world["entities"])
    for task in picked.values():
        assert resolve(task.id).model_dump_json() == task.model_dump_json()


def test_every_domain_has_every_answer_type() -> None:
    _, empty = plan_cells(site_names())
    assert empty == []


def test_a_lookup_takes_the_shortest_way_in_a_sparse_world() -> None:
    """The ``lookups`` segment's knobs: a sparse world holds only what the template pins (a
    chat's channel history included), and the oracle is the shortest way to the asked field,
    without the base's filters; such tasks measure at level 1."""
    s = get_site("chat")
    base = make_task(s, 20_003, "search_pin_mentioning:direct", 0, catalogue=0)
    look = make_task(s, 20_003, "search_pin_mentioning:lookup", 0, catalogue=0, sparse=True)
    assert len(look.world["entities"]) < 6 < len(base.world["entities"])
    assert look.answer is not None and look.verifier == []
    assert len(look.oracle) <= len(base.oracle)
    world = World.from_dict(look.world)
    final = replay(s, world, look.oracle_actions()).final
    shown = {(e.id, f) for e in s.observe(final, world).entities for f in e.fields}
    assert (look.target, look.params["asked_field"]) in shown
    assert look.difficulty is not None and look.difficulty.level == 1
    food = get_site("food")
    filtered = make_task(food, 20_001, "open_late_rated:direct", 0, catalogue=0, sparse=True)
    short = make_task(food, 20_001, "open_late_rated:lookup", 0, catalogue=0, sparse=True)
    assert len(short.oracle) < len(filtered.oracle)  # no filter the way does not need


@pytest.mark.parametrize(("site", "template", "domain"), [
    ("chat", "delete_own_reacted_by", "D2"), ("repo", "watch_named_repo", "D5"),
    ("chat", "edit_own_message", "D7"), ("chat", "edit_own_message:mixed", "D7")])
def test_a_confirmed_commit_in_a_sparse_world_reaches_level_1(site: str, template: str,
                                                              domain: str) -> None:
    """The ``commits`` segment's knobs put the domains whose work is a commit at level 1:
    a confirmation before the commit (Risk Factor L2), short lists, a one-field look-up.
    Without the dialog the same task risks an unwarned commit and fits no level 1."""
    s = get_site(site)
    knobs = {"catalogue": 0, "page_size": dial.SMALL_PAGE, "sparse": True}
    task = make_task(s, 20_000, template, 0, confirm=True, **knobs)
    assert task.domain == domain and task.difficulty is not None
    assert task.difficulty.level == 1 and task.difficulty.measures["risk"] == "confirmed"
    unwarned = make_task(s, 20_000, template, 0, **knobs)
    assert unwarned.difficulty is not None and unwarned.difficulty.level != 1
