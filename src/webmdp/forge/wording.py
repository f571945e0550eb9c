"""WebForge's optional wording stage: a model rewords each instruction at a high temperature,
and a second pass at a low temperature checks that the rewrite asks for the same thing.

Our templates word every instruction, so this stage only adds variety, and it is off unless
``webmdp forge --draft-model`` asks for it. A rewrite replaces the template's wording only when
every check passes. The exact checks come first:

* every value the template's wording states (each string or number parameter, and each
  quoted text) is still there, verbatim;
* the rewrite states no expected answer and no confirmation code;
* it is one paragraph of reasonable length (at most three times the original).

The model's own check (``Verdict: same|different`` at temperature 0) comes last. A rejected
rewrite keeps the template's wording and is recorded with its reason. The task keeps its id
(its dial name rebuilds the template's wording, not the rewrite, which lives in the forge's
``tasks.jsonl``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from webmdp.agents.llm.clients import ChatMessage, ModelClient
from webmdp.synth.model_grader import ModelChat
from webmdp.tasks.answers import mentions
from webmdp.tasks.codes import gold_code
from webmdp.tasks.model import Task

DRAFT_TEMPERATURE = 1.0
CHECK_TEMPERATURE = 0.0
DRAFT_SYSTEM = ("You reword task instructions for a web agent benchmark. Keep every name, "
                "number, date and quoted text exactly as written, ask for exactly the same "
                "thing, add nothing. Reply with the reworded instruction only.")
CHECK_SYSTEM = ("You check a reworded task instruction against the original. Say whether the "
                "rewrite asks for exactly the same thing, with the same constraints and values. "
                "Explain briefly, then end with one line: `Verdict: same` or "
                "`Verdict: different`.")
_VERDICT = re.compile(r"verdict:\s*\**\s*(same|different)\b", re.IGNORECASE)
_QUOTED = re.compile(r"'([^']{2,})'|\"([^\"]{2,})\"")


@dataclass(frozen=True)
class Reworded:
    """One task's wording stage: the instruction it ends with, and why a rewrite was not
    taken (empty when it was)."""

    task: Task
    draft: str | None
    reasons: tuple[str, ...]

    @property
    def accepted(self) -> bool:
        return not self.reasons


def anchors(task: Task) -> list[str]:
    """The values the template's wording states, which a rewrite must keep verbatim."""
    out = [m.group(1) or m.group(2) for m in _QUOTED.finditer(task.instruction)]
    for value in task.params.values():
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            continue
        text = str(value)
        if len(text) >= 2 and text in task.instruction:
            out.append(text)
    return list(dict.fromkeys(out))


def exact_problems(task: Task, draft: str) -> list[str]:
    """What the exact checks find wrong with ``draft`` (see the module docstring)."""
    found = [f"drops {a!r}" for a in anchors(task) if a not in draft]
    if task.answer is not None and mentions(str(task.answer), draft) and not mentions(
            str(task.answer), task.instruction):
        found.append("states the expected answer")
    if gold_code(task) in draft:
        found.append("states the confirmation code")
    if not draft.strip() or "\n\n" in draft.strip() or len(draft) > 3 * len(task.instruction):
        found.append("not one paragraph of reasonable length")
    return found


class Rewriter(ModelChat):
    """Drafts at :data:`DRAFT_TEMPERATURE`, checks at :data:`CHECK_TEMPERATURE`."""

    source = "forge-wording"

    def __init__(self, model_id: str, base_url: str | None = None, *,
                 client: ModelClient | None = None, **options: Any):
        super().__init__(model_id, base_url, client=client, **options)

    def reword(self, tasks: list[Task]) -> list[Reworded]:
        def one(task: Task) -> Reworded:
            text, _, error = self.ask([ChatMessage.text("system", DRAFT_SYSTEM),
                                       ChatMessage.text("user", task.instruction)],
                                      temperature=DRAFT_TEMPERATURE)
            if text is None:
                return Reworded(task, None, (f"draft: {error or 'no reply'}",))
            draft = text.strip().strip('"').strip()
            problems = exact_problems(task, draft)
            if problems:
                return Reworded(task, draft, tuple(problems))
            verdict, _, error = self.ask(
                [ChatMessage.text("system", CHECK_SYSTEM),
                 ChatMessage.text("user", f"ORIGINAL: {task.instruction}\nREWRITE: {draft}")],
                temperature=CHECK_TEMPERATURE)
            found = _VERDICT.findall(verdict or "")
            if not found:
                return Reworded(task, draft, (f"check: {error or 'no verdict'}",))
            if found[-1].lower() != "same":
                return Reworded(task, draft, ("check: the model finds it different",))
            return Reworded(task.model_copy(update={"instruction": draft}), draft, ())

        return self.map(tasks, one)
