"""Every string parameter of a semantic action has a declared bound (ParamSpec.max_length):
a longer value is an invalid action with a short message, in the site and in SemanticEnv."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.core import MAX_TEXT, Action
from webmdp.core.site import _check_type
from webmdp.core.spec import ParamSpec
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import InvalidAction
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task

HUGE = "q" * 1_000_000


def _too_long(site: str, action: Action) -> list[str]:
    """``action.param`` for every string param of ``action`` longer than its bound."""
    spec = get_site(site).action_spec(action.name)
    return [f"{action.name}.{p.name}: {len(action.params[p.name])} > {p.max_length}"
            for p in spec.params
            if isinstance(action.params.get(p.name), str)
            and len(action.params[p.name]) > p.max_length]


@pytest.mark.parametrize("site", site_names())
def test_every_oracle_and_example_param_fits_its_bound(site: str) -> None:
    over = [msg for task in site_tasks(site) for a in task.oracle_actions()
            for msg in _too_long(site, a)]
    assert over == []
    examples = get_site(site).example_params
    assert [(a.name, p.name) for a in get_site(site).actions for p in a.params
            if isinstance(examples.get(p.name), str)
            and len(examples[p.name]) > p.max_length] == []


def test_a_long_value_is_refused_naming_action_param_length_and_bound() -> None:
    site = get_site("shopping")
    site.validate_params(Action("Search", {"query": "q" * MAX_TEXT}))
    with pytest.raises(InvalidAction) as err:
        site.validate_params(Action("Search", {"query": HUGE}))
    msg = str(err.value)
    assert msg == "Search: parameter 'query' is 1000000 characters, at most 2000"


def test_a_wrong_type_is_quoted_shortened() -> None:
    site = get_site("shopping")
    with pytest.raises(InvalidAction) as err:
        site.validate_params(Action("Search", {"query": list(range(1_000_000))}))
    msg = str(err.value)
    assert msg.startswith("Search: parameter 'query' must be str, got [0, 1, 2") and len(msg) < 200
    with pytest.raises(InvalidAction) as err:
        site.validate_params(Action(HUGE, {}))
    assert len(str(err.value)) < 200


def test_a_declared_bound_overrides_the_default() -> None:
    body = ParamSpec("body", "str", text=True, max_length=5000)
    _check_type("Post", body, "b" * 5000)
    with pytest.raises(InvalidAction, match="is 5001 characters, at most 5000"):
        _check_type("Post", body, "b" * 5001)


def test_semantic_env_refuses_a_huge_query_and_does_not_echo_it(
        shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0])
    env.reset()
    obs, reward, term, trunc, info = env.step(Action("Search", {"query": HUGE}))
    assert (reward, term, trunc) == (0.0, False, False)
    assert info["error"] == "Search: parameter 'query' is 1000000 characters, at most 2000"
    assert info["steps"] == 1 and env.trace.steps[0].error == info["error"]
    assert "q" * 100 not in obs["text"]
    obs, _, _, _, info = env.step(Action("Search", {"query": "headphones"}))
    assert info["error"] is None and info["steps"] == 2 and "q" * 100 not in obs["text"]


def test_semantic_env_refuses_a_huge_finish_answer(shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0])
    env.reset()
    _, _, term, trunc, info = env.step(Action("Finish", {"answer": HUGE}))
    assert not term and not trunc and info["steps"] == 1
    assert info["error"] == "Finish: answer is 1000000 characters, at most 2000"
    _, _, term, _, _ = env.step(Action("Finish", {"answer": "done"}))
    assert term
