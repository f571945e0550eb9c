"""The prompts of the model-side synth tools, in our own words after WebSTAR (seed 002,
Appendix F): the eight-stage step critic (3.2), the three-part thought writer (3.3) and the
trajectory judge (3.1), with the parsers of their answers.

Each system prompt starts with a marker line (:data:`CRITIC_MARKER`, :data:`THOUGHT_MARKER`,
:data:`JUDGE_MARKER`) so the scripted model server (:func:`webmdp.testing.model_server.
synth_responder`) can tell them apart offline; the user message names the step in a fixed
line (``PROPOSED ACTION (step N): ...``) for the same reason. Parsers never guess: an answer
without its final line is None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from webmdp.agents.llm.clients import ChatMessage

CRITIC_MARKER = "[webmdp synth: step critic]"
THOUGHT_MARKER = "[webmdp synth: thought writer]"
JUDGE_MARKER = "[webmdp synth: trajectory judge]"
STEP_LINE = "PROPOSED ACTION (step {step}): {action}"
"""The critic's and the thought writer's line naming the step (0-based) and its action."""
THOUGHT_STEP_LINE = "CURRENT ACTION (step {step}): {action}"

_EXPECTED = re.compile(r"expected\s+value\s*[:=]\s*\**\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_VERDICT = re.compile(r"verdict\s*[:=]\s*\**\s*(success|failure|successful|failed|fail)\b",
                      re.IGNORECASE)

ACTION_SPACE = """\
The agent acts on a browser viewport (pixel coordinates, origin at the top left):
- click / double click / right click at (x, y); move the pointer to (x, y)
- drag from (x, y) to (x2, y2)
- scroll at (x, y) by (dx, dy) pixels
- type text into the focused field (it clicks the field first; a trailing newline submits)
- key: press a key or a combination (Enter, ctrl+a, ...)
- select an option of a drop-down; go back / forward; wait
- finish, with the answer to the user when the task asks a question"""

ANNOTATIONS = """\
How the screenshots are marked:
- the green box at the top left names the action taken on that screen; it is not where the
  action happens;
- a red circle is where the pointer lands (click, scroll origin, drag start);
- a red arrow points where a scroll moves the page, or where a drag goes;
- actions with no screen position (typing, keys, finish) have the green label only.
Red marks are ours; do not confuse them with red elements of the page."""

CRITIC_SYSTEM = f"""{CRITIC_MARKER}
You review one step of a web agent before it runs. Decide how much the proposed action is
worth for finishing the user's task: does it move the task forward, and is it the best move
available right now?

You get:
- the task the user gave;
- the agent's earlier actions, each with the thought it wrote (if any);
- up to the last few screenshots, each marked with the action taken on it; the last one is the
  current screen, marked with the PROPOSED action, which has NOT been executed yet;
- a zoomed view of the current screen around the proposed action's target.

{ACTION_SPACE}

{ANNOTATIONS}

Work through these eight stages, writing a short analysis for each:
1. Current screen. What is on the latest screenshot that matters for the task, and what the
   marks show. In the zoomed view, say what lies under the red circle; if it sits on nothing
   clickable, say so plainly. Where the marks and the action's text disagree, trust the marks.
2. What success means. Turn the task into concrete conditions a finished run must meet, and
   list what would make a run wrong or incomplete.
3. Progress so far. Go through the earlier actions and screenshots: what each did, which
   conditions are already met, which remain.
4. The proposed action. Say in plain words what it tries to do and whether it makes sense now.
   An action that misses its target or does not help is worth at most 5. An action that is
   right and moves the task on, or repairs an earlier mistake, is worth more than 5; check
   explicitly whether it repairs an earlier mistake. A click need not be dead centre on its
   element. Answers are judged on their content, not on how the label shows them.
5. Outcomes. The best case if it works, the worst case if it goes wrong, and how likely each is.
6. Alternatives. Name one to three other actions possible on this screen, what each would
   likely lead to, and whether any is strictly better than the proposed one. If one is, the
   proposed action is worth at most 6.
7. Verdict. Weigh stages 4 to 6: does the action clearly help, hurt, help partly, or miss a
   better opportunity?
8. Expected value. An integer from 0 to 10, where 0 means the task is lost or the action does
   damage that cannot be undone, 5 means partly right or beaten by a better move, and 10 means
   the action clearly advances the task and nothing better exists.

End with exactly one line of the form
Expected value: <int>
with nothing after it."""

THOUGHT_SYSTEM = f"""{THOUGHT_MARKER}
You write the inner thought a web agent had just before taking a given action. You see the
task, the agent's earlier actions (with thoughts, where it wrote any), the current screenshot
marked with the action and the action itself. The action is fixed: explain it, never replace
it, and never propose a different one, even if you think it is wrong.

{ACTION_SPACE}

{ANNOTATIONS}

The thought has three parts, written as one paragraph in the first person, without headings:
1. The situation: what the screen shows, with the area the action is about and anything on
   it that bears on the task (texts, items, fields).
2. The reasoning: why this action now, how it follows from the earlier steps and how it
   serves the task. Reason forward, as the agent would before acting: do not cite the marks
   or the action as evidence. If the action repeats an earlier one, say why it is tried again.
   On the first step, outline the task and how to break it down.
3. The instruction: one sentence that says exactly the given action (where, what to type or
   press); it must match the action.

The screenshot shows the page before the action runs. If the action is finish, the episode
ends: do not plan further steps. Answer with the paragraph only, after "Thought: "."""

JUDGE_SYSTEM = f"""{JUDGE_MARKER}
You decide whether a web agent completed the user's task. You see the task, every action the
agent took in order, the answer it gave (if any) and screenshots of the pages it went through
(the last few of them, ending with the page it finished on).

Judge only from this evidence. The task succeeded when everything it asks for was done (the
right item, the right values, the state changes it requires) and any question was answered
correctly; anything missing, wrong or extra that the task forbids is a failure. Do not give
credit for effort or for a plausible plan that was not carried out.

Explain your reasoning briefly, then end with exactly one line:
Verdict: success
or
Verdict: failure"""


@dataclass(frozen=True)
class PriorStep:
    """An earlier step as the prompts list it."""

    step: int
    action: str
    thought: str | None = None


def _history(prior: Sequence[PriorStep]) -> str:
    if not prior:
        return "EARLIER ACTIONS: none (this is the first step)"
    lines = ["EARLIER ACTIONS:"]
    for p in prior:
        lines.append(f"- step {p.step}: {p.action}")
        if p.thought:
            lines.append(f"  thought: {' '.join(p.thought.split())}")
    return "\n".join(lines)


def critic_messages(instruction: str, prior: Sequence[PriorStep], step: int, action: str,
                    screenshots: Sequence[tuple[int, bytes]], zoom: bytes | None
                    ) -> list[ChatMessage]:
    """The critic's request for ``step``: ``screenshots`` are (step, annotated PNG), oldest
    first, the last being the current screen marked with the proposed ``action``; ``zoom`` is
    the crop around its target."""
    parts: list[str | bytes] = [f"USER TASK: {instruction}", _history(prior)]
    for j, png in screenshots:
        which = "current screen, marked with the proposed action" if j == step else \
            f"the screen step {j} acted on, marked with that action"
        parts += [f"Screenshot ({which}):", png]
    if zoom is not None:
        parts += ["Zoomed view of the current screen around the proposed action's target:",
                  zoom]
    parts.append(STEP_LINE.format(step=step, action=action))
    parts.append("Go through the eight stages, then end with `Expected value: <int>`.")
    return [ChatMessage.text("system", CRITIC_SYSTEM), ChatMessage("user", tuple(parts))]


def thought_messages(instruction: str, prior: Sequence[PriorStep], step: int, action: str,
                     screenshots: Sequence[tuple[int, bytes]]) -> list[ChatMessage]:
    """The thought writer's request for ``step`` (``screenshots`` as for the critic)."""
    parts: list[str | bytes] = [f"USER TASK: {instruction}", _history(prior)]
    for j, png in screenshots:
        which = "current screen, marked with the current action" if j == step else \
            f"the screen step {j} acted on"
        parts += [f"Screenshot ({which}):", png]
    parts.append(THOUGHT_STEP_LINE.format(step=step, action=action))
    parts.append("Write the thought that leads to exactly this action.")
    return [ChatMessage.text("system", THOUGHT_SYSTEM), ChatMessage("user", tuple(parts))]


def judge_messages(instruction: str, actions: Sequence[str], answer: str | None,
                   screenshots: Sequence[tuple[str, bytes]]) -> list[ChatMessage]:
    """The judge's request: the task, the numbered actions, the final answer and
    (caption, PNG) screenshots in order."""
    lines = [f"USER TASK: {instruction}", f"ACTIONS ({len(actions)}):"]
    lines += [f"{i}. {a}" for i, a in enumerate(actions)] or ["(none)"]
    lines.append(f"FINAL ANSWER: {answer}" if answer else "FINAL ANSWER: (none given)")
    parts: list[str | bytes] = ["\n".join(lines)]
    if not screenshots:
        parts.append("(no screenshots were recorded)")
    for caption, png in screenshots:
        parts += [f"Screenshot ({caption}):", png]
    parts.append("Did the agent complete the task? End with `Verdict: success` or "
                 "`Verdict: failure`.")
    return [ChatMessage.text("system", JUDGE_SYSTEM), ChatMessage("user", tuple(parts))]


# -- parsing -----------------------------------------------------------------------------------
def parse_expected_value(text: str) -> int | None:
    """The last ``Expected value: <int>`` of a critic's answer, if it is an integer in 0-10;
    None otherwise (a missing, fractional or out-of-range score is not guessed)."""
    found = _EXPECTED.findall(text or "")
    if not found:
        return None
    raw = found[-1]
    if "." in raw:
        return None
    value = int(raw)
    return value if 0 <= value <= 10 else None


def parse_verdict(text: str) -> bool | None:
    """The judge's last ``Verdict: success|failure``: True, False, or None when absent."""
    found = _VERDICT.findall(text or "")
    if not found:
        return None
    return found[-1].lower() in ("success", "successful")


def parse_thought(text: str) -> str | None:
    """The thought of a thought writer's answer: after a ``Thought:`` prefix if present, up to
    any ``Action:`` line a model may add (the action is never taken from the answer);
    whitespace collapsed. None when nothing is left."""
    body = text or ""
    m = re.search(r"thought\s*:", body, re.IGNORECASE)
    if m is not None and not body[:m.start()].strip():
        body = body[m.end():]
    cut = re.search(r"^\s*\**action\**\s*:", body, re.IGNORECASE | re.MULTILINE)
    if cut is not None:
        body = body[:cut.start()]
    out = " ".join(body.split())
    return out or None
