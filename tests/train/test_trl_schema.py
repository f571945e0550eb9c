"""The TRL contract with TRL's own schema builder: every tool of every site's environment
class gives a JSON schema through ``transformers.utils.get_json_schema`` (what GRPOTrainer
calls on each public method), with every parameter typed and described."""

from __future__ import annotations

import inspect

import pytest

from webmdp.rl.trl import environment
from webmdp.sites import site_names

transformers_utils = pytest.importorskip("transformers.utils")
pytestmark = pytest.mark.train


@pytest.mark.parametrize(("site", "mode"), [*((s, "semantic") for s in site_names()),
                                            ("cross-site", "semantic"), ("shopping", "browser")])
def test_every_tool_has_a_schema(site: str, mode: str) -> None:
    cls = environment(site, mode)
    tools = [n for n, _ in inspect.getmembers(cls, inspect.isfunction)
             if not n.startswith("_") and n not in ("reset", "get_reward")]
    assert tools
    for name in tools:
        schema = transformers_utils.get_json_schema(getattr(cls(), name))
        params = schema["function"]["parameters"]
        assert schema["function"]["name"] == name
        for p, spec in params["properties"].items():
            assert spec.get("type") or spec.get("enum"), (name, p)
            assert spec.get("description"), (name, p)
