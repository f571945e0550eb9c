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
    """Run oracle, greedy and random on a slice of every site (or --sites), keeping every
    step's screenshot in browser mode, write the report (RUN/report: report.html, report.md,
    report.json, figures, episodes.parquet) and print its headline table, where it is, the
    `webmdp view` command that browses the run and the page of an episode to replay."""
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
        replays = replay_run(out)
        if mode == "browser":  # the greedy agent again on each site's first task, with pixels
            first = list({t.site: t for t in reversed(tasks)}.values())[::-1]
            shots = RunPlan(replays, first, [AgentSpec("greedy")], mode,  # type: ignore[arg-type]
                            RunSettings(observation="both", screenshots=True,
                                        workers=max(workers, 1),
                                        backend="local" if workers else "inline"), force=True)
            with LiveDisplay("greedy · screenshots", console) as live:
                done = execute_run(shots, on_change=live.update)
            if done.status != "completed":
                raise fail(f"demo replay run {done.status}: {done.error or 'interrupted'}")
        analysis = analyse(load_runs([out]))
        paths = write_report(analysis, out / "report")
    for line in summary(analysis, out, paths):
        typer.echo(line)


def summary(analysis: Analysis, run: Path, paths: dict[str, Path]) -> list[str]:
    """What the demo prints: the headline table, where the full report is, how to browse it."""
    from webmdp.eval.report import summary_table

    state = f" ({analysis.runs[0].state})" if analysis.runs else ""
    out = [*summary_table(analysis.rows), "",
           f"Report:  {paths['html']} (and report.md, report.json, figures, "
           "episodes.parquet)",
           f"Run:     {run}{state}"]
    replays = replay_run(run)
    shown = replay_page(replays) if replays.is_dir() else None
    if shown is None:
        return [*out, f"Open it: webmdp view {shlex.quote(str(run))}"]
    return [*out, f"Open it: webmdp view {shlex.quote(str(replays))} {shlex.quote(str(run))}",
            f"Replay:  http://127.0.0.1:8765{shown} (a greedy episode, screenshot by "
            "screenshot)"]


def replay_run(run: Path) -> Path:
    """Where the demo keeps its screenshot replays: a run beside ``run`` (``RUN-replay``),
    which the viewer reads first, so the greedy agent's first episode per site shows its
    screenshots."""
    return run.with_name(f"{run.name}-replay")


def replay_page(run: Path) -> str | None:
    """The viewer's page of the first greedy episode that kept screenshots (the greedy agent
    explores, then commits: the most to see), or None."""
    import json
    from urllib.parse import urlencode

    for path in sorted((run / "episodes" / "greedy" / "browser").glob("*.json")):
        steps = json.loads(path.read_text()).get("steps", [])
        if any(s.get("screenshot") for s in steps):
            return "/episode?" + urlencode({"agent": "greedy", "mode": "browser",
                                            "task": path.stem})
    return None


def demo_sites(spec: str) -> list[str]:
    """Site names from ``all`` or a comma-separated list (unknown names are a usage error)."""
    if spec.strip() in ("", "all"):
        return site_names()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    for n in names:
        get_site(n)  # raises the unknown-site error with the known names
    return list(dict.fromkeys(names))
