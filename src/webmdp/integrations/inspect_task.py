"""webmdp as an Inspect AI task (``pip install 'webmdp[inspect]'``), registered through
Inspect's entry point (group ``inspect_ai``), so Inspect's own command runs it:

    inspect eval webmdp/webmdp --model openai/gpt-4o -T site=shopping -T split=test \\
        -T holdout=template --limit 20

One sample per webmdp task, one :class:`~webmdp.rl.episode.RLEpisode` per sample. Semantic
mode: the site's actions are the tools, their parameters read from the same ``ParamSpec``s as
``/webmdp/actions``; each call is one MDP step and answers with the page as text. Browser mode:
the GUI actions (click at coordinates or on an element, type, key, scroll, ...) in webmdp's own
Chromium, each answering with a screenshot and the accessibility tree. A call the site refuses
(a bad argument, an action not on the page, a 1 MB string) is one step and one line of tool
error; a reply with no tool call is one invalid step; the episode ends at ``Finish`` or the
step budget, so every sample ends with the verifier's verdict.

Scoring is webmdp's, exact: the verdict is the score (``C`` / ``I``), its metadata the
episode's process metrics, and the task's metrics their means beside accuracy. Each sample's
trace goes to a webmdp run directory (``out``, default ``logs/webmdp``; the path is in the
score's metadata), which ``webmdp report`` and ``webmdp view`` read like any run's.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageTool, ChatMessageUser, get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import (
    ContentImage,
    ContentText,
    Tool,
    ToolCall,
    ToolCallError,
    ToolDef,
    ToolError,
    ToolParams,
)

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.integrations.episode_record import (
    MAX_ERROR,
    STOPPED_EARLY,
    SYSTEM,
    EpisodeRecord,
    action_name,
    first_message,
    one_line,
    save_episode,
    tool_name,
)
from webmdp.rl.actions import gui_actions, task_actions
from webmdp.rl.episode import RLEpisode, observation_text
from webmdp.tasks.model import Task as WebTask
from webmdp.tasks.sources import CROSS

AGENT = "inspect"
DEFAULT_OUT = "logs/webmdp"
NO_TOOL_CALL = ("no tool call: act by calling one of the tools (Finish ends the episode, "
                "with the answer if the task asks for one)")
PROCESS_METRICS = ("exploration_success", "execution_success", "coverage_at_commit", "steps",
                   "recovery", "repetitiveness")


@task
def webmdp(site: str = "shopping", split: str | None = None, level: str | None = None,
           holdout: str = "task", tasks: str | None = None, mode: str = "semantic",
           step_budget: int = DEFAULT_STEP_BUDGET, out: str = DEFAULT_OUT) -> Task:
    """webmdp tasks as an Inspect task. ``site``: a site, a comma-separated list, ``all`` or
    ``cross-site``; ``split`` (train / test) under ``holdout`` (task, template, site:NAME),
    narrowed by ``level`` (1-3 or none); ``tasks``: a task file, or task ids separated by
    commas; ``mode``: semantic or browser; ``out``: the webmdp run directory the traces go to.
    Inspect's ``--limit`` takes the first N."""
    chosen = select_tasks(site, split, level, holdout, tasks)
    samples = [Sample(id=t.id, input=t.instruction, metadata={"site": t.site,
                                                                  "template": t.template})
               for t in chosen]
    by_id = {t.id: t for t in chosen}
    return Task(dataset=MemoryDataset(samples, name=f"webmdp-{site}"),
                solver=episode_solver(by_id, mode, step_budget, out), scorer=verdict(),
                metrics=[accuracy(), stderr(), *(mean_of(k) for k in PROCESS_METRICS)],
                metadata={"site": site, "mode": mode, "split": split, "holdout": holdout,
                          "level": level})


def select_tasks(site: str, split: str | None, level: str | None, holdout: str,
                 tasks: str | None) -> list[WebTask]:
    """``webmdp run``'s selection: the same tasks, in the same order."""
    from webmdp.tasks.select import Selection, select
    from webmdp.tasks.splits import parse_level

    file = Path(tasks) if tasks and Path(tasks).is_file() else None
    ids = [i.strip() for i in tasks.split(",") if i.strip()] if tasks and not file else []
    lvl = parse_level(level)
    if ids:  # ids name their own sites; the cross-site suite's are looked up apart
        cross = [i for i in ids if i.startswith(f"{CROSS}_")]
        found = {t.id: t for group, suite in ((cross, CROSS),
                                              ([i for i in ids if i not in cross], "builtin"))
                 if group for t in select(Selection(suite=suite, task_ids=tuple(group),
                                                    split=split, holdout=holdout, level=lvl))}
        return [found[i] for i in ids if i in found]
    suite = CROSS if site == CROSS else "builtin"
    return select(Selection(site=None if suite != "builtin" else site, suite=suite,
                            tasks_file=file, split=split, holdout=holdout, level=lvl))


# -- the episode ------------------------------------------------------------------------------
@solver
def episode_solver(tasks: dict[str, WebTask], mode: str, step_budget: int, out: str) -> Solver:
    """Play the sample's task: the model calls the tools until the episode ends."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = tasks[str(state.sample_id)]
        record = EpisodeRecord(task, mode)
        model = get_model()
        agent = re.sub(r"[^A-Za-z0-9_.:@-]+", "-", f"{AGENT}:{model}")[:100]
        episode = await asyncio.to_thread(_start, task, mode, step_budget, agent)
        try:
            tools = make_tools(task, mode)
            state.tools = tools
            finish = "finish" if mode == "browser" else "Finish"
            opening = first_message(task, _page(episode, episode.obs))
            state.messages = [ChatMessageSystem(content=SYSTEM.format(finish=finish)),
                              ChatMessageUser(content=opening)]
            while not episode.done:
                state.output = await model.generate(state.messages, tools)
                state.messages.append(state.output.message)
                if state.output.message.tool_calls:
                    for call in state.output.message.tool_calls:
                        state.messages.append(await _call(episode, call, mode))
                else:
                    step = await asyncio.to_thread(episode.invalid, NO_TOOL_CALL,
                                                   state.output.completion)
                    if not step.done:
                        state.messages.append(ChatMessageUser(content=NO_TOOL_CALL))
        finally:
            await asyncio.to_thread(_finish, episode, record, Path(out))
        state.store.set("webmdp", record.as_json())
        state.completed = True
        return state

    return solve


def _start(task: WebTask, mode: str, step_budget: int, agent: str) -> RLEpisode:
    seat = None
    if mode == "browser":
        from webmdp.rl.browser import BrowserSeat

        seat = BrowserSeat()
    return RLEpisode(task, "rubric" if task.sites else "terminal", mode=mode, agent=agent,
                     step_budget=step_budget, seat=seat)


def _finish(episode: RLEpisode, record: EpisodeRecord, out: Path) -> None:
    try:
        if not episode.done and episode.env is not None:
            episode.env.seal("agent_error", agent_error=STOPPED_EARLY)
        record.done(episode)
        record.path = str(save_episode(out, record.task, episode.env.trace))
    finally:
        episode.close()
        if episode.seat is not None:
            episode.seat.close()


def _page(episode: RLEpisode, obs: dict[str, Any]) -> str:
    """The page as text: semantic mode's with typed action signatures; browser mode's URL
    and accessibility tree."""
    return observation_text(obs, episode.task.site if episode.mode == "semantic" else None)


# -- tools --------------------------------------------------------------------------------------
def make_tools(task: WebTask, mode: str) -> list[Tool]:
    """The task's actions as Inspect tools (for a cross-site task, every member site's),
    for the model and Inspect's viewer; the calls themselves go to the episode
    (:func:`_call`), which checks their arguments as every webmdp agent's are checked."""
    described = gui_actions() if mode == "browser" else task_actions(task)
    return [ToolDef(_no_direct_call(), name=tool_name(a["name"]), description=a["description"],
                    parameters=ToolParams.model_validate(a["parameters"])).as_tool()
            for a in described]


def _no_direct_call() -> Any:
    """A tool's function: a new one per tool (Inspect keeps a tool's name on its function)."""
    async def call(**params: Any) -> str:
        raise ToolError("webmdp's tools run inside its own solver")

    return call


async def _call(episode: RLEpisode, call: ToolCall, mode: str) -> ChatMessageTool:
    """One tool call as one step of the episode. Inspect would check the arguments against
    the schema first and answer a bad one with the whole value (a 1 MB argument, 1 MB back):
    here the site checks them, the step counts, and the error is one line."""
    def answer(content: Any = "", error: str | None = None) -> ChatMessageTool:
        return ChatMessageTool(content=content, tool_call_id=call.id, function=call.function,
                               error=None if error is None else ToolCallError(
                                   "parsing", one_line(error)))

    if episode.done:
        return answer(error="the episode is over")
    if call.parse_error or not isinstance(call.arguments, dict):
        step = await asyncio.to_thread(episode.invalid, f"unreadable arguments for "
                                       f"{call.function[:80]}", str(call.arguments)[:MAX_ERROR])
        return answer(error=step.error)
    step = await asyncio.to_thread(episode.step, {"name": action_name(call.function),
                                                  "params": call.arguments})
    if step.error:
        return answer(error=step.error)
    return answer(_result(episode, step.obs, mode))


def _result(episode: RLEpisode, obs: dict[str, Any], mode: str) -> Any:
    """What a step answers: the page as text; in browser mode its screenshot first."""
    if episode.done:
        return "The episode has ended."
    if mode != "browser":
        return _page(episode, obs)
    from webmdp.rl.browser import screenshot_b64

    shot = screenshot_b64(obs)
    text = ContentText(text=_page(episode, obs))
    return [ContentImage(image=f"data:image/png;base64,{shot}"), text] if shot else [text]


# -- scoring ------------------------------------------------------------------------------------
@scorer(metrics=[accuracy(), stderr()])
def verdict() -> Scorer:
    """The verifier's verdict (``C`` / ``I``); the metadata holds the process metrics."""

    async def score(state: TaskState, target: Target) -> Score:
        found = state.store.get("webmdp")
        if not found:
            return Score(value=INCORRECT, explanation="the episode did not run")
        return Score(value=CORRECT if found["success"] else INCORRECT,
                     answer=found.get("answer"), explanation=found["termination"],
                     metadata=found)

    return score


def mean_of(key: str) -> Metric:
    """The mean over samples of a process metric in the scores' metadata (samples where it
    is undefined, such as execution success of an episode that never explored, left out)."""

    @metric(name=key)
    def factory() -> Metric:
        def compute(scores: list[SampleScore]) -> float:
            values = [s.score.metadata[key] for s in scores
                      if s.score.metadata and s.score.metadata.get(key) is not None]
            return float(sum(values) / len(values)) if values else float("nan")

        return compute

    return factory()

