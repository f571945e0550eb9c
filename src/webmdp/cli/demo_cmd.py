"""`webmdp demo`: three built-in agents on both sites in a real browser, then a report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer
from rich.progress import Progress, TaskID

from webmdp.cli.common import console, progress, select_tasks, user_errors
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.trace import EpisodeTrace

DEMO_AGENTS = ("oracle", "greedy", "random")
DEMO_SITES = ("shopping", "mail")


def demo(
    out: Path = typer.Option(Path("runs/demo"), "--out", "-o", help="Run directory."),
    per_site: int = typer.Option(8, help="Tasks per site (spread over templates and HN counts)."),
    mode: str = typer.Option("browser", help="browser (default) or semantic."),
) -> None:
    """Run oracle, greedy and random on a slice of Shopping and Mail, then print the report."""
    from webmdp.eval.analysis import analyse
    from webmdp.eval.load import load_runs
    from webmdp.eval.write import write_report

    with user_errors():
        tasks = [t for s in DEMO_SITES for t in select_tasks(s, limit=per_site, spread=True)]
        with progress() as bar:
            for agent in DEMO_AGENTS:
                job = bar.add_task(f"{agent} · {mode}", total=len(tasks))
                cfg = RunConfig(agent=agent, mode=mode, observation="axtree")  # type: ignore[arg-type]
                run_tasks(tasks, out, cfg, on_episode=_advance(bar, job))
        analysis = analyse(load_runs([out]))
        paths = write_report(analysis, out / "report")
    typer.echo(paths["markdown"].read_text(encoding="utf-8"))
    console.print(f"report written to {paths['markdown']} and {paths['html']}")


def _advance(bar: Progress, job: TaskID) -> Callable[[EpisodeTrace | None], None]:
    return lambda _trace: bar.advance(job)
