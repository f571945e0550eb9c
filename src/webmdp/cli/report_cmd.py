"""`webmdp report RUN [RUN ...]`: compare agents across runs; write report.md, report.html,
report.json, figures and episodes.parquet; print the Markdown (or the JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from webmdp.cli.common import fail, user_errors
from webmdp.runner.lock import owned


def report(
    run_dirs: list[Path] = typer.Argument(..., help="Directories written by `webmdp run` or "
                                          "`webmdp import`; agents are compared across them."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of Markdown: the "
                                 "aggregate's keys at the top level, breakdowns under by_agent, "
                                 "by_template, ..., and skill_invocation, complexity, planning, "
                                 "bifurcation, disagreements, runs (each run's path, state "
                                 "and invocations, from its manifest)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Where to write the report files "
                                    "(default: FIRST_RUN/report)."),
    matcher: str | None = typer.Option(None, help="How an agent step is matched with a gold "
                                       "step in the planning metrics: exact, normalized or "
                                       "llm-judge (default: exact for typed gold, normalized "
                                       "for text gold)."),
    judge_model: str | None = typer.Option(None, help="llm-judge: PROVIDER/MODEL of the judge."),
    judge_base_url: str | None = typer.Option(None, help="llm-judge: the judge's endpoint URL."),
    window: int = typer.Option(5, help="Recovery look-ahead in gold steps, at least 1 "
                               "(Definition 4.1)."),
) -> None:
    """Analyse every episode of the runs (process metrics, skills, bifurcations, complexity,
    planning metrics) and write report.md, report.html, report.json, figures/ and
    episodes.parquet. Runs over different task sets are compared on their common tasks. Each
    run's state (completed, running, interrupted, failed; "interrupted (owner gone)" when the
    process of a run still marked running is dead) is read from its manifest, never written."""
    from webmdp.eval.analysis import analyse
    from webmdp.eval.load import load_runs
    from webmdp.eval.write import report_json, write_report

    for run_dir in run_dirs:
        if not run_dir.is_dir():
            raise fail(f"no run directory {run_dir}")
    with user_errors():
        loaded = load_runs(run_dirs)
        if not loaded.episodes and len(run_dirs) > 1 and all(_task_count(r) for r in run_dirs):
            counts = ", ".join(f"{r} has {_task_count(r)}" for r in run_dirs)
            raise fail(f"the runs share no task, so there is nothing to compare ({counts} "
                       "tasks with episodes); report each run alone, or run the same tasks")
        if not loaded.episodes:
            reasons = f" ({len(loaded.skipped)} unreadable traces)" if loaded.skipped else ""
            raise fail(f"no episodes in {', '.join(map(str, run_dirs))}{reasons}")
        match = None
        if matcher is not None:
            from webmdp.eval.matchers import make_matcher

            match = make_matcher(matcher, judge_model=judge_model, base_url=judge_base_url)
        analysis = analyse(loaded, matcher=match, window=window)
        folder = out or run_dirs[0] / "report"
        with owned(folder, "report folder"):  # one writer per folder (webmdp.runner.lock)
            paths = write_report(analysis, folder)
    if as_json:
        typer.echo(json.dumps(report_json(analysis), indent=2))
    else:
        typer.echo(paths["markdown"].read_text(encoding="utf-8"))
    for note in analysis.notes:
        typer.echo(f"note: {note}", err=True)
    if analysis.skipped:
        typer.echo(f"skipped {len(analysis.skipped)} inputs (listed in the report)", err=True)
    typer.echo(f"wrote {', '.join(str(p) for p in paths.values())}", err=True)


def _task_count(run_dir: Path) -> int:
    """How many tasks of the run have an episode (episodes/<agent>/<mode>/<task>.json)."""
    return len({p.stem for p in (run_dir / "episodes").glob("*/*/*.json")})
