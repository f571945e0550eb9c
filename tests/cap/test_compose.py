"""Cross-site composition (CAP §3.2-3.4): sampling, ports, DAG patterns, determinism, and an
oracle that passes on the cross-site MDP with a full rubric score."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

from webmdp.agents.registry import make_agent
from webmdp.cap.clusters import CLUSTERS, ETA, Usage, affinity_matrix, anchor, expand
from webmdp.cap.compose import DEFAULT_COUNT, PATTERN_NAMES, generate_cross_tasks
from webmdp.cap.ports import find_sink
from webmdp.cli.main import app
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.sites import site_names
from webmdp.tasks.answers import mentions
from webmdp.tasks.model import Task

runner = CliRunner()


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return generate_cross_tasks(DEFAULT_COUNT)


def test_at_least_300_tasks_over_all_ten_sites(tasks: list[Task]) -> None:
    assert len(tasks) >= 300
    assert {s for t in tasks for s in t.sites or ()} == set(site_names())
    assert all(2 <= len(t.sites or ()) <= 4 and len(set(t.sites or ())) == len(t.sites or ())
               for t in tasks)
    assert set(Counter(t.template for t in tasks)) == set(PATTERN_NAMES)
    assert len({t.id for t in tasks}) == len(tasks)
    assert all(t.site == "cross-site" and t.cross is not None for t in tasks)


def test_generation_is_deterministic_and_prefix_stable(tasks: list[Task]) -> None:
    again = generate_cross_tasks(7, points_of=None)
    assert [t.model_dump_json() for t in again] == [t.model_dump_json() for t in tasks[:7]]


def test_every_flow_is_real(tasks: list[Task]) -> None:
    """A consumer's message must carry each producer's value; the instruction never states
    it; the verifier asks for it."""
    for t in tasks:
        assert t.cross is not None
        steps = {s.id: s for s in t.cross.dag}
        for src, dst in t.cross.edges:
            out = steps[src].output
            assert out is not None
            assert not mentions(out.value, t.instruction), (t.id, out)
            if dst == "answer":
                continue
            site = steps[dst].site
            assert any(c.op == "mentions" and out.value in c.value and c.fact.startswith(site)
                       for c in t.verifier), (t.id, src, dst)


def test_oracle_passes_with_full_rubric_and_random_does_not(tasks: list[Task]) -> None:
    for t in tasks[: len(PATTERN_NAMES)]:
        trace = run_episode(SemanticEnv(t, agent="oracle"), make_agent("oracle"))
        assert trace.success and trace.rubric is not None and trace.rubric.root == 1.0, t.id
        by_site = {tr.site for tr in trace.transitions() if tr.site}
        assert by_site == set(t.sites or ())
        rnd = run_episode(SemanticEnv(t, agent="random"), make_agent("random"))
        assert rnd.rubric is not None and rnd.rubric.root < 1.0


def test_rubric_covers_every_point_and_marks_consumed_steps_critical(tasks: list[Task]) -> None:
    for t in tasks[:40]:
        assert t.cross is not None
        tree = t.cross.rubric
        leaf_types = {(leaf.site, leaf.type_id) for leaf in tree.leaves() if leaf.type_id}
        for p in t.cross.covered:
            if p.type_id:
                assert (p.site, p.type_id) in leaf_types
        kinds = {leaf.kind for leaf in tree.leaves()}
        assert {"action", "perception", "other"} <= kinds
        consumed = {a for a, _ in t.cross.edges}
        for child in tree.children:
            if child.id in consumed:
                assert child.critical, (t.id, child.id)
            elif child.id.startswith("s") and "." not in child.id:
                assert not child.critical, (t.id, child.id)


def test_cluster_sampling_follows_eq1_and_eta() -> None:
    m = affinity_matrix()
    assert all(m[a, b] == m[b, a] for a in CLUSTERS for b in CLUSTERS)
    usage = Usage()
    usage.record(["mail", "chat"])
    assert anchor(usage, CLUSTERS) not in {"mail", "chat"}
    picked = expand("repo", 3, usage, m)
    assert picked[0] == "repo" and all(m["repo", s] > ETA for s in picked[1:])
    usage.record(["repo", "qa"])
    usage.record(["repo", "qa"])
    assert expand("repo", 2, usage, m)[1] != "qa"  # least co-occurring first


def test_sinks_are_found_in_messages_only() -> None:
    from support import site_tasks

    jobs = site_tasks("jobs")
    sinks = [find_sink(t) for t in jobs]
    assert any(s is not None and s.param in ("text", "note") for s in sinks)
    assert find_sink(site_tasks("shopping")[0]) is None


def test_cli_generate_and_stats(tasks: list[Task], tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "cross.jsonl"
    res = runner.invoke(app, ["tasks", "generate", "--suite", "cross-site", "--limit", "14",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert len(out.read_text().splitlines()) == 14
    res = runner.invoke(app, ["tasks", "stats", "--suite", str(out), "--json"])
    assert res.exit_code == 0, res.output
    import json

    stats = json.loads(res.output)
    assert stats["n"] == 14 and stats["table2"]["Websites"]["max"] <= 4
    assert stats["patterns"] == {p: 2 for p in PATTERN_NAMES}
    res = runner.invoke(app, ["tasks", "list", "--suite", str(out), "--site", "repo"])
    assert res.exit_code == 0 and "cross-site_" in res.output
    mixed = tmp_path / "mixed.jsonl"
    from support import site_tasks

    mixed.write_text(out.read_text() + site_tasks("mail")[0].model_dump_json() + "\n")
    res = runner.invoke(app, ["tasks", "list", "--suite", str(mixed)])
    assert res.exit_code != 0 and "mixes suites" in res.output
