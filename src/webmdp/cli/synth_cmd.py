"""`webmdp synth ...`: training data from agent runs (WebSTAR): step grades, agreement between
graders, thoughts, SFT export and a step reward model. Traces are never rewritten; what these
commands make lives in RUN/synth/."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from webmdp.cli.common import console, fail, in_range, progress, user_errors

app = typer.Typer(
    help="Training data from agent runs (WebSTAR): grade every step exactly (or with a model), "
         "compare graders, add thoughts, export step-masked SFT data, train a step reward model. "
         "Results live in RUN/synth/ next to the traces, which are never rewritten.",
    no_args_is_help=True,
)

GRADERS = "exact, model (with --model) or steprm:PATH"


@app.command("grade")
def grade(
    run: Path = typer.Argument(..., help="A run directory (`webmdp run` or `synth rollouts`)."),
    grader: str = typer.Option("exact", help=f"Who grades: {GRADERS}. exact needs no model: "
                               "each step's grade comes from the goal distance before and "
                               "after it."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per graded step "
                                 "(task_id, agent, mode, seed, step, grade, source, why)."),
    budget: int = typer.Option(1000, help="exact: A* expansions per distance; a distance not "
                               "settled within it leaves the step ungraded (counted)."),
) -> None:
    """Grade every GUI step of a run 0-10 and write RUN/synth/grades-<source>.jsonl.

    exact: 10 when the goal distance goes down (or the step follows the verified oracle, or
    first reveals evidence the task requires), 5 when it stays, 2 for an undoable detour, 0
    when the goal becomes unreachable; a finish is 10 / 0 as the verifier passes or fails; a
    step with no semantic change takes the grade of the semantic action it prepares, else 5.
    """
    from webmdp.synth.episodes import episodes, trace_paths
    from webmdp.synth.exact import ExactGrader, counts
    from webmdp.synth.sidefile import grades_path, write_rows

    in_range("--budget", budget, 1)
    if grader != "exact":
        raise fail(f"unknown grader {grader!r}: use {GRADERS}")
    with user_errors():
        n = len(trace_paths(run))
        g = ExactGrader(budget)
        rows = []
        with progress() as bar:
            job = bar.add_task("grading (exact)", total=n)
            for ep in episodes(run):
                rows += g.rows(ep.label, ep.mode, ep.trace, ep.task)
                bar.advance(job)
        path = grades_path(run, g.source)
        write_rows(path, rows)
    if as_json:
        for r in sorted(rows, key=lambda r: (r["agent"], r["mode"], r["task_id"], r["step"])):
            if r["grade"] is not None:
                sys.stdout.write(json.dumps(r, sort_keys=True) + "\n")
    c = counts(rows)
    ungraded = ", ".join(f"{k.removeprefix('ungraded_')} {v}" for k, v in c.items()
                         if k.startswith("ungraded_"))
    console.print(f"{c['steps']} steps of {n} episodes: {c['graded']} graded, "
                  f"{c['ungraded']} ungraded{f' ({ungraded})' if ungraded else ''} -> {path}",
                  highlight=False)


@app.command("agreement")
def agreement_cmd(
    run: Path = typer.Argument(..., help="The run directory holding the grades."),
    a: str = typer.Argument(..., help="First grade source: exact, model, steprm, or a path to "
                            "a JSONL file of grades (e.g. human labels: agent, mode, task_id, "
                            "step, grade)."),
    b: str = typer.Argument(..., help="Second grade source, as the first."),
    cutoff: float = typer.Option(5, help="The cutoff of the binary split (0-10)."),
    split: str = typer.Option("gt", help="gt: kept = grade > cutoff (the training mask, eq. "
                              "2); ge: grade >= cutoff (WebSTAR Table 5's split)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (n, agreement, kappa, "
                                 "spearman, confusion, split, spread, cdf, kept_share)."),
) -> None:
    """Compare two grade sources on the steps both graded: binary agreement and the confusion
    matrix (Table 5's layout), Cohen's kappa, Spearman's rho, per-step spread over repeated
    samples, the score CDF (Figure 4) and the kept share at cutoffs 2, 4, 5, 6, 8 (Table 6)."""
    from webmdp.synth.agreement import agreement, markdown

    check_cutoff(cutoff)
    if split not in ("gt", "ge"):
        raise fail(f"--split must be gt or ge, got {split!r}")
    with user_errors():
        result = agreement(grade_rows(run, a), grade_rows(run, b), cutoff=cutoff,
                           split=split,  # type: ignore[arg-type]
                           names=(source_label(a), source_label(b)))
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(markdown(result))


def check_cutoff(cutoff: float) -> None:
    if not 0 <= cutoff <= 10:
        raise fail(f"--cutoff must be between 0 and 10, got {cutoff:g}")


def source_label(source: str) -> str:
    return Path(source).stem if source.endswith(".jsonl") else source.split(":", 1)[0]


def grade_rows(run: Path, source: str) -> list[dict]:
    """The rows of a stored grade source, or of a JSONL file given by path."""
    from webmdp.errors import ConfigError
    from webmdp.synth.sidefile import grades_path, read_rows

    if source.endswith(".jsonl") or "/" in source:
        return read_rows(Path(source))
    path = grades_path(run, source)
    if not path.is_file():
        raise ConfigError(f"{run}: no {source} grades yet (run `webmdp synth grade {run} "
                          f"--grader {source}`)")
    return read_rows(path)
