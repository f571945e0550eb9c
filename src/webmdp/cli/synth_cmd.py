"""`webmdp synth ...`: training data from agent runs (WebSTAR): step grades, agreement between
graders, thoughts, SFT export and a step reward model. Traces are never rewritten; what these
commands make lives in RUN/synth/."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from webmdp.cli.common import console, fail, progress, prose, user_errors
from webmdp.cli.ranges import guard
from webmdp.cli.synth_export_cmd import export_cmd
from webmdp.cli.synth_steprm_cmd import steprm_app, steprm_data
from webmdp.runner.lock import owned
from webmdp.synth.sidefile import row_key

if TYPE_CHECKING:
    from webmdp.synth.episodes import Episode

app = typer.Typer(
    help="Training data from agent runs (WebSTAR): grade every step exactly (or with a model), "
         "compare graders, add thoughts, export step-masked SFT data, train a step reward model. "
         "Results live in RUN/synth/ next to the traces, which are never rewritten.",
    no_args_is_help=True,
)

GRADERS = "exact, model (with --model) or steprm:PATH"


def _model_options(base_url: str | None, timeout: float | None, max_retries: int | None,
                   concurrency: int | None, temperature: float | None) -> dict[str, Any]:
    opts: dict[str, Any] = {"base_url": base_url, "timeout_s": timeout, "max_retries": max_retries,
                            "concurrency": concurrency, "temperature": temperature}
    return {k: v for k, v in opts.items() if v is not None}


def grade(
    run: Path = typer.Argument(..., help="A run directory (`webmdp run` or `synth rollouts`)."),
    grader: str = typer.Option("exact", help=f"Who grades: {GRADERS}. exact needs no model: "
                               "each step's grade comes from the goal distance before and "
                               "after it."),
    model: str | None = typer.Option(None, help="model grader: PROVIDER/MODEL (e.g. "
                                     "vllm/Qwen2.5-VL-7B-Instruct, openai/o4-mini)."),
    base_url: str | None = typer.Option(None, help="model grader: the endpoint URL."),
    window: int = typer.Option(3, help="model grader: screenshots shown per step (the current "
                               "one and the ones before it), each marked with its action."),
    samples: int = typer.Option(1, help="model grader: ask k times per step (for the "
                                "consistency figures of `synth agreement`)."),
    temperature: float | None = typer.Option(None, help="model grader: sampling temperature "
                                             "(default: the endpoint's; 1.0 with --samples > 1)."),
    timeout: float | None = typer.Option(None, help="model grader: seconds per request."),
    max_retries: int | None = typer.Option(None, help="model grader: retries per request."),
    concurrency: int | None = typer.Option(None, help="model grader: requests in flight."),
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
    A distance the search cannot settle leaves the step ungraded, counted, never 0.

    model: WebSTAR's eight-stage critic sees the instruction, the earlier actions and thoughts,
    the last --window screenshots marked with their actions and a zoomed crop at the target,
    and ends with "Expected value: N". A reply without one is recorded ungraded; a step whose
    request failed (endpoint down) is ungraded as an infra error, and running the command
    again asks exactly those steps again. Needs browser traces with screenshots (`webmdp run
    --mode browser --screenshots`).

    steprm:PATH: a step reward model trained by `webmdp synth steprm train`.
    """
    kind = grader.split(":", 1)[0]
    if kind not in ("exact", "model", "steprm") or (kind == "steprm" and ":" not in grader):
        raise fail(f"unknown grader {grader!r}: use {GRADERS}")
    if kind == "model" and not model:
        raise fail("--grader model needs --model PROVIDER/MODEL (and --base-url for a local "
                   "endpoint)")
    with user_errors(), owned(run):  # one owner per run directory (webmdp.runner.lock)
        if kind == "exact":
            rows, n, path = _grade_exact(run, budget)
        elif kind == "model":
            assert model is not None
            opts = _model_options(base_url, timeout, max_retries, concurrency, temperature)
            rows, n, path = _grade_model(run, model, window, samples, opts)
        else:
            rows, n, path = _grade_steprm(run, grader.split(":", 1)[1])
    if as_json:
        for r in sorted(rows, key=row_key):
            if r["grade"] is not None:
                sys.stdout.write(json.dumps(r, sort_keys=True) + "\n")
    _summary(rows, n, path)


def _summary(rows: list[dict[str, Any]], n: int, path: Path) -> None:
    from webmdp.synth.exact import counts

    c = counts(rows)
    ungraded = ", ".join(f"{k.removeprefix('ungraded_')} {v}" for k, v in c.items()
                         if k.startswith("ungraded_"))
    console.print(f"{c['steps']} step grades of {n} episodes: {c['graded']} graded, "
                  f"{c['ungraded']} ungraded{f' ({ungraded})' if ungraded else ''} -> {path}",
                  highlight=False)


def _each_episode(run: Path, what: str, rows_of: Callable[[Episode], list[dict[str, Any]]],
                  *, by_task: bool = False) -> tuple[list[dict[str, Any]], int]:
    """``rows_of`` over every episode of the run, with a progress bar; ``by_task`` takes a
    task's rollouts one after another (the exact grader shares their distances)."""
    from webmdp.synth.episodes import episodes, trace_paths

    n = len(trace_paths(run))
    eps = episodes(run)
    if by_task:
        eps = iter(sorted(eps, key=lambda e: (e.trace.task_id, e.label, e.mode)))
    rows: list[dict[str, Any]] = []
    with progress() as bar:
        job = bar.add_task(what, total=n)
        for ep in eps:
            rows += rows_of(ep)
            bar.advance(job)
    return rows, n


def _grade_exact(run: Path, budget: int) -> tuple[list[dict[str, Any]], int, Path]:
    from webmdp.synth.exact import ExactGrader
    from webmdp.synth.sidefile import grades_path, write_rows

    g = ExactGrader(budget)
    rows, n = _each_episode(run, "grading (exact)",
                            lambda ep: g.rows(ep.label, ep.mode, ep.trace, ep.task),
                            by_task=True)
    path = grades_path(run, g.source)
    write_rows(path, rows)
    return rows, n, path


def _grade_model(run: Path, model: str, window: int, samples: int,
                 opts: dict[str, Any]) -> tuple[list[dict[str, Any]], int, Path]:
    """Grade with a model, resuming: steps already graded (or found unparseable) are kept,
    steps never asked or failed on the endpoint are asked; the file is rewritten atomically
    after every episode, so an interrupted command loses at most the episode in flight."""
    from webmdp.synth.model_grader import INFRA_ERROR, ModelGrader
    from webmdp.synth.sidefile import episode_key, grades_path, read_rows, write_rows

    path = grades_path(run, "model")
    stored = {row_key(r): r for r in (read_rows(path) if path.is_file() else [])}
    done: dict[tuple[str, str, str], set[int]] = {}
    for r in stored.values():
        if r.get("why") != INFRA_ERROR:
            done.setdefault(episode_key(r), set()).add(int(r["step"]))
    g = ModelGrader(model, window=window, samples=samples, **opts)

    def grade(ep: Episode) -> list[dict[str, Any]]:
        asked = done.get(ep.key, set())
        todo = [i for i in range(len(ep.trace.steps)) if i not in asked]
        if todo:
            for r in g.rows(ep.label, ep.mode, ep.trace, ep.path, ep.task, steps=todo):
                stored[row_key(r)] = r
            write_rows(path, stored.values())
        return []

    _, n = _each_episode(run, f"grading ({model})", grade)
    write_rows(path, stored.values())
    return list(stored.values()), n, path


def _grade_steprm(run: Path, model_dir: str) -> tuple[list[dict[str, Any]], int, Path]:
    from webmdp.synth.sidefile import grades_path, write_rows
    from webmdp.synth.steprm import StepRMGrader

    g = StepRMGrader(Path(model_dir))
    rows, n = _each_episode(run, "grading (steprm)", lambda ep: g.rows(
        ep.label, ep.mode, ep.trace, ep.task, trace_path=ep.path))
    path = grades_path(run, "steprm")
    write_rows(path, rows)
    return rows, n, path


def thoughts(
    run: Path = typer.Argument(..., help="A run directory."),
    source: str = typer.Option("exact", "--thoughts", help="exact: written from the semantic "
                               "transition and the task, no model; model: WebSTAR's three "
                               "parts (situation, reasoning, actionable instruction) from the "
                               "marked screenshot (needs --model)."),
    model: str | None = typer.Option(None, help="model thoughts: PROVIDER/MODEL."),
    base_url: str | None = typer.Option(None, help="model thoughts: the endpoint URL."),
    window: int = typer.Option(1, help="model thoughts: screenshots shown per step."),
    timeout: float | None = typer.Option(None, help="model thoughts: seconds per request."),
    max_retries: int | None = typer.Option(None, help="model thoughts: retries per request."),
    concurrency: int | None = typer.Option(None, help="model thoughts: requests in flight."),
) -> None:
    """Add a thought before every step and write RUN/synth/thoughts-<source>.jsonl. The
    traces are not touched: a model agent's own thought stays in its trace, and the action
    is never changed."""
    from webmdp.synth.sidefile import thoughts_path, write_rows
    from webmdp.synth.thoughts import ExactThoughts, ModelThoughts

    if source not in ("exact", "model"):
        raise fail(f"--thoughts must be exact or model, got {source!r}")
    if source == "model" and not model:
        raise fail("--thoughts model needs --model PROVIDER/MODEL")
    with user_errors(), owned(run):
        exact = ExactThoughts() if source == "exact" else None
        writer = None if exact else ModelThoughts(model or "", window=window, **_model_options(
            base_url, timeout, max_retries, concurrency, None))

        def rows_of(ep: Episode) -> list[dict[str, Any]]:
            if writer is not None:
                return writer.rows(ep.label, ep.mode, ep.trace, ep.path, ep.task)
            assert exact is not None
            return exact.rows(ep.label, ep.mode, ep.trace, ep.task)

        rows, n = _each_episode(run, f"thoughts ({source})", rows_of)
        path = thoughts_path(run, source)
        write_rows(path, rows)
    console.print(f"{len(rows)} thoughts for {n} episodes -> {path}", highlight=False)


def rollouts(
    ctx: typer.Context,
    tasks: Path = typer.Option(..., "--tasks", help="Tasks (JSONL) to roll out, e.g. from "
                               "`webmdp tasks generate`."),
    agent: list[str] = typer.Option(..., "--agent", "-a", help="The teacher agent(s), as "
                                    "`webmdp run --agent` takes them."),
    n: int = typer.Option(16, "--n", help="Rollouts per task: seeds 0..N-1 (stored as "
                          "AGENT@sSEED)."),
    out: Path = typer.Option(..., "--out", help="The run directory."),
    temperature: float | None = typer.Option(None, help="Model agents: sampling temperature "
                                             "(default 1.0, so rollouts differ)."),
    judge_model: str | None = typer.Option(None, help="Also judge every trajectory with a "
                                           "model (PROVIDER/MODEL): it sees the instruction, "
                                           "the actions and the screenshots."),
    judge_base_url: str | None = typer.Option(None, help="The judge's endpoint URL."),
    judge_window: int | None = typer.Option(None, help="The judge sees at most the last K "
                                            "screenshots (default: all)."),
    trajectory_filter: str = typer.Option("verifier", "--filter", help="What keeps a "
                                          "trajectory: verifier (the exact verifier) or judge."),
) -> None:
    """Roll a teacher agent out N times per task (a thin layer over `webmdp run`: same resume,
    progress and options; any other `webmdp run` option is passed through, e.g. --mode
    browser --screenshots --model ...). Then filter trajectories by the exact verifier (or a
    model judge) into RUN/synth/trajectories.jsonl, with the judge's agreement with the
    verifier when one is given."""
    from typer.main import get_command

    from webmdp.cli import run_cmd

    runner_app = typer.Typer()  # `webmdp run` alone: one command, so no "run" in its argv
    runner_app.command()(run_cmd.run)

    if trajectory_filter not in ("verifier", "judge"):
        raise fail(f"--filter must be verifier or judge, got {trajectory_filter!r}")
    if trajectory_filter == "judge" and not judge_model:
        raise fail("--filter judge needs --judge-model PROVIDER/MODEL")
    extra = list(ctx.args)
    args = ["--tasks", str(tasks), "--seeds", ",".join(map(str, range(n))),
            "--out", str(out), *[x for a in agent for x in ("--agent", a)], *extra]
    model_agent = "--model" in extra or any(x.startswith("--model=") for x in extra)
    if model_agent and "--temperature" not in extra:
        args += ["--temperature", str(1.0 if temperature is None else temperature)]
    code = guard(get_command(runner_app), "run").main(args=args, prog_name="webmdp run",
                                        standalone_mode=False)
    if code not in (None, 0, 3):
        raise typer.Exit(code=int(code))
    with user_errors():
        summary = _filter_trajectories(out, judge_model, judge_base_url, judge_window,
                                       trajectory_filter)
    console.print(summary, highlight=False)
    if code:
        raise typer.Exit(code=int(code))


def _filter_trajectories(run: Path, judge_model: str | None, judge_base_url: str | None,
                         judge_window: int | None, by: str) -> str:
    from webmdp.synth.episodes import episodes
    from webmdp.synth.judge import TrajectoryJudge
    from webmdp.synth.judge import agreement as judge_agreement
    from webmdp.synth.sidefile import episode_key, synth_dir, write_rows

    judge = TrajectoryJudge(judge_model, base_url=judge_base_url, window=judge_window) \
        if judge_model else None
    rows = []
    for ep in episodes(run):
        row: dict[str, Any] = {"agent": ep.label, "mode": ep.mode, "task_id": ep.trace.task_id,
                               "seed": ep.trace.seed, "verifier": ep.trace.success}
        if ep.trace.infra_error:
            row.update(kept=False, why="infra_error")
        elif judge is not None:
            j = judge.row(ep.label, ep.mode, ep.trace, ep.path, ep.task)
            row.update(judge=j["judge"], judge_why=j["why"])
            row["kept"] = bool(j["judge"]) if by == "judge" else ep.trace.success
        else:
            row["kept"] = ep.trace.success
        rows.append(row)
    write_rows(synth_dir(run) / "trajectories.jsonl", rows, episode_key)
    kept = sum(r["kept"] for r in rows)
    line = f"{len(rows)} trajectories, {kept} kept by the {by} -> " \
           f"{synth_dir(run) / 'trajectories.jsonl'}"
    if judge is not None:
        a = judge_agreement([{"judge": r.get("judge"), "verifier": r["verifier"]} for r in rows])
        line += (f"\njudge vs verifier: agreement {a['agreement']} on {a['n']} judged "
                 f"({a['unjudged']} unjudged)")
    return line


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
                                 "spearman, confusion, split, spread, share_above, cdf, "
                                 "kept_share)."),
) -> None:
    """Compare two grade sources on the steps both graded: binary agreement and the confusion
    matrix (Table 5's layout), Cohen's kappa, Spearman's rho, per-step spread over repeated
    samples, the share of steps graded above each threshold (WebSTAR Figure 4; its
    complement, the CDF, as 'cdf') and the steps kept per cutoff 2, 4, 5, 6, 8."""
    from webmdp.synth.agreement import agreement, markdown

    if split not in ("gt", "ge"):
        raise fail(f"--split must be gt or ge, got {split!r}")
    with user_errors():
        from webmdp.synth.sidefile import grade_rows

        result = agreement(grade_rows(run, a), grade_rows(run, b), cutoff=cutoff,
                           split=split,  # type: ignore[arg-type]
                           names=(source_label(a), source_label(b)))
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(markdown(result))


def source_label(source: str) -> str:
    return Path(source).stem if source.endswith(".jsonl") else source.split(":", 1)[0]


for _name, _command in (("rollouts", rollouts), ("grade", grade), ("agreement", agreement_cmd),
                        ("thoughts", thoughts), ("export", export_cmd),
                        ("steprm-data", steprm_data)):
    app.command(_name, help=prose(_command.__doc__), context_settings={
        "allow_extra_args": True, "ignore_unknown_options": True} if _name == "rollouts"
        else None)(_command)
for _info in steprm_app.registered_commands:
    _info.help = prose(_info.callback.__doc__ if _info.callback else None)
app.add_typer(steprm_app, name="steprm")
