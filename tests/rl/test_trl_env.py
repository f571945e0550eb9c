"""TRL's environment_factory contract, as GRPOTrainer reads a class: a no-argument
constructor, ``reset(**row)`` returning the first observation, every other public method but
``get_reward`` a tool with typed parameters and a Google docstring, an invalid call raising
the site's message; and the dataset `webmdp rl dataset` writes."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any, get_type_hints

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.cli.main import app
from webmdp.rl.splits import SPLIT_VERSION, split_of
from webmdp.rl.trl import class_name, environment, method_name, success
from webmdp.sites import get_site, site_names
from webmdp.tasks.codes import gold_code

runner = CliRunner()
NOT_TOOLS = ("reset", "get_reward")


def tools(cls: type) -> dict[str, Any]:
    """The tools TRL makes of a class: its public functions except reset and get_reward."""
    return {n: f for n, f in inspect.getmembers(cls, inspect.isfunction)
            if not n.startswith("_") and n not in NOT_TOOLS}


@pytest.mark.parametrize("site", site_names())
def test_every_action_is_one_typed_documented_tool(site: str) -> None:
    cls = environment(site)
    assert cls.__name__ == class_name(site) and cls.__init__.__code__.co_argcount == 1
    found = tools(cls)
    assert set(found) == {method_name(a.name) for a in get_site(site).actions} | {"finish"}
    for name, fn in found.items():
        hints = get_type_hints(fn)
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        assert set(params) <= set(hints), name
        doc = inspect.getdoc(fn) or ""
        for p in params:  # Google style: every parameter under Args:
            assert re.search(rf"^\s+{p}: \S", doc, re.M) and "Args:" in doc, (name, p)


def test_several_sites_give_a_dict_and_cross_site_prefixes_the_site() -> None:
    classes = environment("all")
    assert list(classes) == [*site_names(), "cross-site"]  # every value of `environment`
    assert classes["shopping"].__name__ == "WebMDPShoppingEnv"
    cross = environment("cross-site")
    assert cross.__name__ == "WebMDPCrossSiteEnv"
    assert "shopping_add_to_cart" in tools(cross) and "open_site" in tools(cross)


@pytest.mark.parametrize("site", ["shopping", "mail", "food"])
def test_the_oracle_through_the_tools_earns_the_reward(site: str) -> None:
    task = site_tasks(site)[1]
    env = environment(site)()
    first = env.reset(task_id=task.id, prompt=[{"role": "user", "content": "x"}], level="2")
    assert first == environment(site)().reset(task_id=task.id)  # the same row, the same text
    assert first.startswith("\n\n") and not first[2:].startswith("\n")  # apart from the task
    for action in task.oracle_actions():
        out = getattr(env, method_name(action.name))(**action.params)
        assert isinstance(out, str)
    assert env.success is False  # not over yet
    env.finish(answer=gold_code(task))
    assert env.get_reward() == 1.0 and env.success is True
    assert success([None], environments=[env]) == [1.0]
    with pytest.raises(ValueError, match="over"):
        env.finish()


def test_an_invalid_call_raises_the_sites_message() -> None:
    task = site_tasks("shopping")[0]
    env = environment("shopping")()
    env.reset(task_id=task.id)
    with pytest.raises(ValueError) as err:
        env.open_product(product_id="PRD-999")
    assert err.value.args[0]
    with pytest.raises(ValueError, match="task id"):
        env.reset(task_id="shopping_9999")


def test_dense_rewards_sum_to_the_terminal_outcome_less_the_start_potential() -> None:
    from webmdp.rl.rewards import potential

    task = site_tasks("mail")[3]
    env = environment("mail", reward="dense")()
    env.reset(task_id=task.id)
    assert env._episode is not None
    start = potential(task, env._episode.env.tracker.state)  # type: ignore[union-attr]
    for action in task.oracle_actions():
        getattr(env, method_name(action.name))(**action.params)
    env.finish(answer=gold_code(task))
    assert abs(env.get_reward() - (1.0 - start)) < 1e-9


@pytest.mark.parametrize(("scope", "suffix"), [
    ("shopping", ".jsonl"), ("shopping", ".parquet"),
    pytest.param("all", ".jsonl", marks=pytest.mark.slow)])  # every site's pool: slow
def test_rl_dataset_rows_name_their_task_and_environment(tmp_path: Path, scope: str,
                                                         suffix: str) -> None:
    out = tmp_path / f"train{suffix}"
    res = runner.invoke(app, ["rl", "dataset", "--site", scope, "--split", "train",
                              "--level", "3", "--limit", "20", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text().splitlines()] if suffix == ".jsonl" \
        else pq.read_table(out).to_pylist()
    assert len(rows) == 20
    by_id = {t.id: t for s in site_names() for t in site_tasks(s)}
    for r in rows:
        task = by_id[r["task_id"]]
        assert r["prompt"] == [{"role": "user", "content": task.instruction}]
        assert r["level"] == 3 and r["split"] == "train" and r["template"] == task.template
        assert r["holdout"] == "task" and r["split_version"] == SPLIT_VERSION
        assert r["site"] == task.site
        # several sites: each row names the environment class that serves it
        assert r.get("environment") == (task.site if scope == "all" else None)
        assert split_of(task.id) == "train"
    bad = runner.invoke(app, ["rl", "dataset", "--split", "nope", "--out", str(out)])
    assert bad.exit_code == 2 and "split" in bad.output
    old = runner.invoke(app, ["rl", "dataset", "--split", "level-3", "--out", str(out)])
    assert old.exit_code == 2 and "--split train --level 3" in " ".join(old.output.split())


def test_success_is_a_property_and_a_reward_function_not_a_tool() -> None:
    cls = environment("shopping")
    assert "success" not in tools(cls) and isinstance(cls.success, property)
    task = site_tasks("shopping")[0]
    won, lost = cls(), cls()
    for env in (won, lost):
        env.reset(task_id=task.id)
    for action in task.oracle_actions():
        getattr(won, method_name(action.name))(**action.params)
    won.finish(answer=gold_code(task))
    lost.finish(answer="nothing")
    assert success(["a", "b"], environments=[won, lost]) == [1.0, 0.0]
    assert [e.get_reward() for e in (won, lost)] == [1.0, 0.0]


def test_a_split_scoped_environment_refuses_a_test_task() -> None:
    from webmdp.rl.splits import Catalog

    catalog = Catalog("shopping")
    train, test = catalog.tasks("train", 1)[0], catalog.tasks("test")[0]
    cls = environment("shopping", split="train", level=1)
    assert cls().reset(task_id=train.id).startswith("\n\n")
    with pytest.raises(ValueError, match="not in split 'train' at level 1"):
        cls().reset(task_id=test.id)
    with pytest.raises(ValueError, match="--split train --level 2"):
        environment("shopping", split="level-2")
