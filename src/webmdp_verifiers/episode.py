"""One rollout's webmdp episode, as the tool server plays it and as the scorer replays it.

The tool server keeps the live episode; the state it shares with the rollout's host
(:class:`WebMDPState`) is the list of calls the model made. webmdp is deterministic, so the
host replays that list on a fresh episode to score it: the verdict and the metrics are those
of the episode the model saw, with no trust placed in the tool server's process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

from webmdp.integrations import episode_record as shared
from webmdp.rl.episode import RLEpisode, StepResult, observation_text
from webmdp.tasks.model import Task

SYSTEM = shared.SYSTEM.format(finish="Finish")
ENDED = "The episode has ended."


class WebMDPState(vf.State):
    """What the tool server shares with the rollout's host: every tool call, in order."""

    calls: list[dict[str, Any]] = Field(default_factory=list)
    """``{"name", "params"}`` per call the model made, refused ones included."""
    outcome: dict[str, Any] | None = None
    """The scored replay (host side only; filled by the first scoring hook)."""


def reward_mode(task: Task, reward: str | None) -> str:
    """The reward a rollout-scored trainer gets: the terminal verdict, or for a cross-site
    task the rubric root (shaped rewards sum to a per-task constant over a whole episode)."""
    if reward is None:
        return "rubric" if task.sites else "terminal"
    if reward not in ("terminal", "rubric"):
        raise ValueError(f"reward {reward!r}: verifiers scores whole rollouts, so use "
                         "'terminal' or 'rubric' (a shaped reward sums to a per-task constant)")
    return reward


def start(task: Task, reward: str, step_budget: int, agent: str = "verifiers") -> RLEpisode:
    return RLEpisode(task, reward, agent=agent, step_budget=step_budget)  # type: ignore[arg-type]


def page(episode: RLEpisode, obs: dict[str, Any]) -> str:
    """The page as text, with the typed signature of every action it offers."""
    return observation_text(obs, episode.task.site)


def opening(episode: RLEpisode) -> str:
    """The first user message: the instruction and the episode's first page."""
    return shared.first_message(episode.task, page(episode, episode.obs))


def play(episode: RLEpisode, name: str, params: dict[str, Any]) -> StepResult | None:
    """One call as one step (a cross-site ``mail__Reply`` is ``mail.Reply``); None once the
    episode is over."""
    if episode.done:
        return None
    return episode.step({"name": shared.action_name(name), "params": params})


def answer(episode: RLEpisode, step: StepResult | None) -> str:
    """What the model reads back: the page, a one-line error, or that the episode ended."""
    if step is None:
        return f"Error: {ENDED}"
    if step.error:
        return "Error: " + shared.one_line(step.error)
    return ENDED if episode.done else page(episode, step.obs)


def replay(task: Task, reward: str, step_budget: int, calls: list[dict[str, Any]],
           out: Path | None) -> dict[str, Any]:
    """The episode the calls made, ended (a model that stopped early fails it), scored: the
    reward, the verdict and the process metrics; with ``out``, its trace saved there."""
    from webmdp.rl.rewards import final_reward

    episode = start(task, reward, step_budget)
    try:
        for call in calls:
            if play(episode, str(call.get("name", "")), dict(call.get("params") or {})) is None:
                break
        total = episode.total
        if not episode.done:  # the verdict of what was done: 0, or the rubric's partial root
            trace = episode.env.seal("agent_error", agent_error=shared.STOPPED_EARLY)
            total = final_reward(reward, 0.0, trace)  # type: ignore[arg-type]
        metrics = shared.process_metrics(episode.env.trace, task)
        path = None if out is None else str(shared.save_episode(out, task, episode.env.trace))
    finally:
        episode.close()
    return {"reward": float(total), "metrics": metrics, "trace": path}
