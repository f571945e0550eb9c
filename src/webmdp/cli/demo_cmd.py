"""`webmdp demo`: three built-in agents on a slice of every site in a real browser, then a
report."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from webmdp.cli.common import console, fail, select_tasks, user_errors
from webmdp.runner.limits import check_workers
from webmdp.runner.spec import AgentSpec, RunSettings
from webmdp.sites import get_site, site_names

if TYPE_CHECKING:
    from webmdp.eval.analysis import Analysis

DEMO_AGENTS = ("oracle", "greedy", "random")


def demo(
    out: Path = typer.Option(Path("runs/demo"), "--out", "-o", help="Run directory."),
    sites: str = typer.Option("all", "--sites", "-s",
                              help="Comma-separated site names, or 'all': "
                                   f"{', '.join(site_names())}."),
    per_site: int = typer.Option(4, help="Tasks per site, at least 1 (spread over templates "
                                 "and HN counts)."),
    mode: str = typer.Option("browser", help="browser (default) or semantic."),
    workers: int = typer.Option(2, "--workers", "-w", help="Worker processes; 0 runs the "
                                "episodes in this process."),
) -> None:
    """Run oracle, greedy and random on a slice of every site (or --sites), write the report
    (RUN/report: report.html, report.md, report.json, figures, episodes.parquet) and print its
    headline table, where it is and the `webmdp view` command that browses the run."""
    from webmdp.eval.analysis import analyse
    from webmdp.eval.load import load_runs
    from webmdp.eval.write import write_report

    with user_errors():
        check_workers(workers)
        tasks = [t for s in demo_sites(sites) for t in select_tasks(s, limit=per_site,
                                                                     spread=True)]
        from webmdp.runner.display import LiveDisplay
        from webmdp.runner.run import RunPlan, execute_run

        plan = RunPlan(out, tasks, [AgentSpec(a) for a in DEMO_AGENTS], mode,  # type: ignore[arg-type]
                       RunSettings(observation="axtree", workers=max(workers, 1),
                                   backend="local" if workers else "inline"), force=True)
        with LiveDisplay(f"{', '.join(DEMO_AGENTS)} · {mode}", console) as live:
            outcome = execute_run(plan, on_change=live.update)
        if outcome.status != "completed":
            raise fail(f"demo run {outcome.status}: {outcome.error or 'interrupted'}")
        analysis = analyse(load_runs([out]))
        paths = write_report(analysis, out / "report")
    for line in summary(analysis, out, paths):
        typer.echo(line)


def summary(analysis: Analysis, run: Path, paths: dict[str, Path]) -> list[str]:
    """What the demo prints: the headline table, where the full report is, how to browse it."""
    from webmdp.eval.report import summary_table

    state = f" ({analysis.runs[0].state})" if analysis.runs else ""
    return [*summary_table(analysis.rows), "",
            f"Report:  {paths['html']} (and report.md, report.json, figures, "
            "episodes.parquet)",
            f"Run:     {run}{state}",
            f"Open it: webmdp view {shlex.quote(str(run))}"]


def demo_sites(spec: str) -> list[str]:
    """Site names from ``all`` or a comma-separated list (unknown names are a usage error)."""
    if spec.strip() in ("", "all"):
        return site_names()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    for n in names:
        get_site(n)  # raises the unknown-site error with the known names
    return list(dict.fromkeys(names))
