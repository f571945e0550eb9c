"""`webmdp demo`: three built-in agents on a slice of every site in a real browser, then a
report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer
from rich.progress import Progress, TaskID

from webmdp.cli.common import console, progress, select_tasks, user_errors
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.sites import get_site, site_names
from webmdp.trace import EpisodeTrace

DEMO_AGENTS = ("oracle", "greedy", "random")


def demo(
    out: Path = typer.Option(Path("runs/demo"), "--out", "-o", help="Run directory."),
    sites: str = typer.Option("all", "--sites", "-s",
                              help="Comma-separated site names, or 'all': "
                                   f"{', '.join(site_names())}."),
    per_site: int = typer.Option(4, help="Tasks per site (spread over templates and HN counts)."),
    mode: str = typer.Option("browser", help="browser (default) or semantic."),
) -> None:
    """Run oracle, greedy and random on a slice of every site (or --sites), then print the
    report."""
    from webmdp.eval.analysis import analyse
    from webmdp.eval.load import load_runs
    from webmdp.eval.write import write_report

    with user_errors():
        tasks = [t for s in demo_sites(sites) for t in select_tasks(s, limit=per_site,
                                                                     spread=True)]
        with progress() as bar:
            for agent in DEMO_AGENTS:
                job = bar.add_task(f"{agent} · {mode}", total=len(tasks))
                cfg = RunConfig(agent=agent, mode=mode, observation="axtree")  # type: ignore[arg-type]
                run_tasks(tasks, out, cfg, on_episode=_advance(bar, job))
        analysis = analyse(load_runs([out]))
        paths = write_report(analysis, out / "report")
    typer.echo(paths["markdown"].read_text(encoding="utf-8"))
    console.print(f"report written to {paths['markdown']} and {paths['html']}")


def demo_sites(spec: str) -> list[str]:
    """Site names from ``all`` or a comma-separated list (unknown names are a usage error)."""
    if spec.strip() in ("", "all"):
        return site_names()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    for n in names:
        get_site(n)  # raises the unknown-site error with the known names
    return list(dict.fromkeys(names))


def _advance(bar: Progress, job: TaskID) -> Callable[[EpisodeTrace | None], None]:
    return lambda _trace: bar.advance(job)
