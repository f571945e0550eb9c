"""`webmdp run`: run an agent on tasks and store traces."""

from __future__ import annotations

from pathlib import Path

import typer

from webmdp.agents.registry import agent_names
from webmdp.cli.common import console, fail, progress, select_tasks, user_errors
from webmdp.errors import unknown_choice
from webmdp.runner.local import RunConfig, run_tasks

MODES = ("semantic", "browser")
OBSERVATIONS = ("screenshot", "axtree", "both")


def run(
    site: str = typer.Option("shopping", "--site", "-s", help="Site name, or 'all'."),
    agent: str = typer.Option("oracle", "--agent", "-a", help="Agent: oracle, random, greedy."),
    mode: str = typer.Option("semantic", "--mode", "-m",
                             help="semantic (typed actions on the MDP) or browser (Chromium)."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Run at most N tasks."),
    out: Path = typer.Option(Path("runs/latest"), "--out", "-o", help="Run directory."),
    template: str | None = typer.Option(None, help="Only this template."),
    task_id: list[str] = typer.Option(None, "--task", help="Only these task ids (repeatable)."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
    step_budget: int = typer.Option(50, help="GUI steps before an episode is truncated."),
    screenshots: bool = typer.Option(False, help="Save a screenshot per browser step."),
    observation: str = typer.Option("both", help="Browser observation: screenshot, axtree or "
                                                  "both."),
    resume: bool = typer.Option(True, help="Skip episodes whose trace already exists."),
    seed: int = typer.Option(0, help="Seed for stochastic agents."),
) -> None:
    """Run an agent on a site's tasks; one trace per episode is written as soon as it ends."""
    with user_errors():
        if mode not in MODES:
            raise unknown_choice("mode", mode, MODES)
        if observation not in OBSERVATIONS:
            raise unknown_choice("observation", observation, OBSERVATIONS)
        if agent not in agent_names():
            raise unknown_choice("agent", agent, agent_names())
        tasks = select_tasks(site, tasks_file=tasks_file, template=template,
                             task_ids=task_id or None, limit=limit, spread=True)
        if not tasks:
            raise fail("no tasks selected")
        cfg = RunConfig(agent=agent, mode=mode, step_budget=step_budget,  # type: ignore[arg-type]
                        resume=resume, screenshots=screenshots, observation=observation,
                        seed=seed)
        ok = 0
        with progress() as bar:
            job = bar.add_task(f"{agent} · {mode}", total=len(tasks))

            def tick(trace) -> None:  # type: ignore[no-untyped-def]
                nonlocal ok
                ok += bool(trace and trace.success)
                bar.advance(job)

            traces = run_tasks(tasks, out, cfg, on_episode=tick)
    infra = sum(t.termination == "infra_error" for t in traces)
    console.print(f"{len(traces)} episodes run ({len(tasks) - len(traces)} resumed), "
                  f"{ok} successful, {infra} infrastructure errors -> {out}")
