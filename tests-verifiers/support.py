"""A scripted OpenAI-compatible model for verifiers' runs (``webmdp.testing.ScriptedModelServer``,
streaming as verifiers' client asks): keyed on the conversation, since rollouts run
concurrently."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from webmdp.tasks.model import Task
from webmdp.testing.model_server import Reply, Request

BIG = "x" * 1_000_000


def plan(task: Task) -> list[dict[str, Any]]:
    """The task's oracle, then Finish with its answer."""
    return [*({"name": a.name, "params": dict(a.params)} for a in task.oracle_actions()),
            {"name": "Finish", "params": {"answer": task.answer or "done"}}]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    return content if isinstance(content, str) else " ".join(
        str(p.get("text", "")) for p in content if isinstance(p, dict))


def oracle_tools(tasks: Sequence[Task], unruly: str | None = None) -> Callable[[Request], Reply]:
    """Plays each task's oracle through the taskset's tools, one call per turn, then answers
    with no tool call. The task ``unruly`` names instead calls an action its page does not
    offer, then one with a 1 MB argument, then stops."""
    by_instruction = {t.instruction: t for t in tasks}
    assert len(by_instruction) == len(tasks), "instructions must tell the tasks apart"

    def respond(request: Request) -> Reply:
        messages = request.body.get("messages", [])
        first = next(m for m in messages if m.get("role") == "user")
        task = by_instruction[_text(first).split("\n\n", 1)[0].removeprefix("Task: ")]
        done = sum(m.get("role") == "tool" for m in messages)
        steps = plan(task)
        if task.id == unruly:
            steps = [{"name": "PlaceOrder", "params": {}},
                     {"name": "Search", "params": {"query": BIG}}]
        if done >= len(steps):
            return Reply(text="I am done.")
        call = steps[done]
        return Reply(tool_calls=[{"name": call["name"].replace(".", "__"),
                                  "arguments": call["params"]}])

    return respond


def oracle_json(tasks: Sequence[Task]) -> Callable[[Request], Reply]:
    """For verifiers' OpenEnv taskset, which reads actions as JSON text: the task is the
    one the first observation's metadata names."""
    by_id = {t.id: t for t in tasks}

    def respond(request: Request) -> Reply:
        messages = request.body.get("messages", [])
        first = next(m for m in messages if m.get("role") == "user")
        task = by_id[json.loads(_text(first))["observation"]["metadata"]["task_id"]]
        done = sum(m.get("role") == "assistant" for m in messages)
        steps = plan(task)
        return Reply(text=json.dumps(steps[min(done, len(steps) - 1)]))

    return respond
