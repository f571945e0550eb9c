"""A scripted model for Inspect's ``mockllm/model`` (its callable form, keyed on the
conversation, since samples run concurrently): it plays each task's oracle through the tools,
then Finish with the task's answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    ModelUsage,
)

from webmdp.integrations.inspect_task import tool_name
from webmdp.tasks.model import Task


def oracle_model(tasks: Sequence[Task]) -> Callable[..., ModelOutput]:
    """The callable: the task is the one whose instruction opens the conversation; the next
    action is the oracle's, counted by the tool results so far."""
    by_instruction = {t.instruction: t for t in tasks}
    assert len(by_instruction) == len(tasks), "instructions must tell the tasks apart"

    def answer(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: Any
               ) -> ModelOutput:
        first = next(m for m in messages if isinstance(m, ChatMessageUser))
        head = first.text.split("\n\n", 1)[0].removeprefix("Task: ")
        task = by_instruction[head]
        done = sum(isinstance(m, ChatMessageTool) for m in messages)
        plan = [(a.name, dict(a.params)) for a in task.oracle_actions()]
        plan.append(("Finish", {"answer": task.answer or "done"}))
        name, params = plan[min(done, len(plan) - 1)]
        return scripted(ModelOutput.for_tool_call("mockllm/model", tool_name(name), params))

    return answer


def scripted(output: ModelOutput) -> ModelOutput:
    """``output`` with its token usage given: mockllm counts tokens itself otherwise, with a
    tokenizer file tiktoken would download (this machine is offline)."""
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output
