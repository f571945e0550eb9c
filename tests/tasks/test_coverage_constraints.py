"""Coverage measures what WebSTEP measures: a task's constraints are the target's fields at
their access level and nothing else (as the published bundles state them), so the oracle,
which succeeds on every task, covers every constraint before it commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import site_tasks
from webmdp.agents import OracleAgent
from webmdp.env.semantic import SemanticEnv
from webmdp.eval.importers.webstep import import_webstep
from webmdp.eval.metrics import episode_metrics
from webmdp.runner.episode import run_episode
from webmdp.sites import site_names
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import Task

BUNDLES = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles"


def _all() -> list[Task]:
    return [t for s in site_names() for t in site_tasks(s)]


def _oracle_coverage(task: Task) -> float:
    metrics = episode_metrics(run_episode(SemanticEnv(task), OracleAgent()), task)
    assert metrics.terminal_success, task.id
    return metrics.coverage_at_commit


def test_constraints_name_only_the_target() -> None:
    for t in _all():
        assert t.info_constraints, t.id
        assert {c.entity for c in t.info_constraints} == {t.target}, t.id


def test_constraint_count_does_not_grow_with_hard_negatives() -> None:
    """Whether an agent inspected the look-alikes is not coverage."""
    for s in site_names():
        by_template: dict[str, set[int]] = {}
        for t in site_tasks(s):
            by_template.setdefault(t.template, set()).add(len(t.info_constraints))
        assert all(len(n) == 1 for n in by_template.values()), (s, by_template)


def test_the_oracle_covers_every_constraint_before_it_commits_sampled() -> None:
    """Every 9th task of every site (200 oracles); `make test-slow` replays all 1,800."""
    low = [(t.id, c) for t in _all()[::9] if (c := _oracle_coverage(t)) < 1.0]
    assert not low


@pytest.mark.slow
def test_the_oracle_covers_every_constraint_before_it_commits_everywhere() -> None:
    low = [(t.id, c) for t in _all() if (c := _oracle_coverage(t)) < 1.0]
    assert not low


def test_imported_bundles_and_our_tasks_have_the_same_constraint_shape(
        tmp_path: Path) -> None:
    """The published bundles (gmail_0001 has two hard negatives ranked above its target, and
    its oracle opens both) constrain the target alone; so do our tasks of the same template."""
    import_webstep([BUNDLES], tmp_path / "run")
    imported = read_tasks(tmp_path / "run" / "tasks.jsonl")
    assert imported and any(t.hard_negatives for t in imported)
    for bundle in imported:
        ours = [t for t in site_tasks(bundle.site) if t.template == bundle.template]
        assert ours, (bundle.site, bundle.template)
        for task in (bundle, *ours):
            assert {c.entity for c in task.info_constraints} == {task.target}, task.id
            assert {c.level for c in task.info_constraints} <= {"card", "detail"}
