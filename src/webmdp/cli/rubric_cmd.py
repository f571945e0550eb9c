"""`webmdp rubric`: rubric trees (CAP) as files, and a model judge measured against the exact
leaves."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from webmdp.cli.common import console, fail, request_options, user_errors
from webmdp.redact import strict_dumps, write_scrubbed
from webmdp.runner.lock import owned

app = typer.Typer(help="Rubric trees (CAP): the file format, and an agent-as-judge measured "
                  "against the exact leaves.", no_args_is_help=True)


@app.command("schema")
def schema() -> None:
    """Print the JSON schema of a rubric tree file."""
    from webmdp.tasks.rubric import tree_schema

    typer.echo(json.dumps(tree_schema(), indent=2))


@app.command("check")
def check(path: Path = typer.Argument(..., help="A rubric tree (JSON).")) -> None:
    """Validate a rubric tree file; a malformed one is refused with the path of the bad
    node."""
    from webmdp.tasks.rubric import load_tree

    with user_errors():
        tree = load_tree(path)
    leaves = tree.leaves()
    kinds = {k: sum(leaf.kind == k for leaf in leaves) for k in ("action", "perception",
                                                                 "other")}
    console.print(f"{path}: a valid tree, {len(leaves)} leaves ({kinds['action']} action, "
                  f"{kinds['perception']} perception, {kinds['other']} other), "
                  f"{sum(leaf.critical for leaf in leaves)} critical")


@app.command("judge")
def judge(
    run: Path = typer.Argument(..., help="A run directory with cross-site episodes."),
    judge_model: str = typer.Option(..., "--judge-model", help="PROVIDER/MODEL of the judge "
                                    "(e.g. openai/gpt-4o, anthropic/claude-sonnet-4-5)."),
    judge_base_url: str | None = typer.Option(None, "--judge-base-url", help="The judge's "
                                              "endpoint URL (e.g. a vLLM server)."),
    mode: str = typer.Option("extract,url", "--mode", help="Comma-separated: 'extract' "
                             "(final answer, visited URLs, screenshots) and 'url' (the page "
                             "of the state the agent left each site in, restored)."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Judge at most N episodes."),
    timeout: float | None = typer.Option(None, help="Seconds per request."),
    max_retries: int | None = typer.Option(None, help="Retries per request."),
    concurrency: int | None = typer.Option(None, help="Requests in flight."),
) -> None:
    """Score every leaf of each cross-site episode's rubric tree with a model (CAP's
    agent-as-judge), aggregate by eq. 2, and measure it against the exact leaves: per leaf
    kind the confusion matrix and Cohen's kappa, and the shift in each metric. Verdicts go to
    RUN/rubric/judge.jsonl (with evidence, prompt and reply; an unparseable reply leaves the
    leaf unjudged, not 0, and an unjudged leaf is never credit), the agreement to
    RUN/rubric/agreement.json. In extract mode a leaf whose check is a value (answer, fact)
    is decided by comparing the value the model extracts, not by its pass/fail. Judging a
    run again replaces that judge's earlier verdicts."""
    from webmdp.eval.rubric_judge import MODES, RubricJudge, agreement, judge_run, read_rows
    from webmdp.synth.episodes import episodes

    modes = [m.strip() for m in mode.split(",") if m.strip()]
    for m in modes:
        if m not in MODES:
            raise fail(f"unknown --mode {m!r}; valid choices: {', '.join(MODES)}")
    options = request_options(timeout, max_retries, concurrency, limit)
    with user_errors(), owned(run):  # one owner per run directory (webmdp.runner.lock)
        eps = [e for e in episodes(run) if e.task.cross is not None]
        if not eps:
            raise fail(f"{run}: no episode of a cross-site task (run one with "
                       "`webmdp run --suite cross-site`)")
        eps = eps[:limit] if limit else eps
        model = RubricJudge(judge_model, judge_base_url, **options)
        with console.status(f"judging {len(eps)} episodes x {len(modes)} mode(s)..."):
            rows_path = judge_run(run, model, eps, modes)  # type: ignore[arg-type]
        rows = [r for r in read_rows(rows_path) if r["judge"] == judge_model]
        trees = [t for t in read_rows(run / "rubric" / "judged.jsonl")
                 if t["result"]["judge"].startswith(judge_model + ":")]
        result = agreement(rows, trees, {e.key: e for e in eps})
        write_scrubbed(run / "rubric" / "agreement.json", strict_dumps(result, indent=2) + "\n")
    from rich.table import Table

    for m, res in result.items():
        table = Table("leaf kind", "leaves", "unjudged", "TP", "FP", "FN", "TN", "agreement",
                      "kappa", title=f"{judge_model} ({m}) vs the exact leaves")
        for kind, r in res["leaves"].items():
            c = r["confusion"]
            table.add_row(kind, str(r["n"]), str(r["unjudged"]), str(c["tp"]), str(c["fp"]),
                          str(c["fn"]), str(c["tn"]), str(r["agreement"]), str(r["kappa"]))
        console.print(table)
        j = res["judge"]
        console.print(f"episodes with a judged root ({m}): {j['n']}; left unjudged (not "
                      f"counted in the metrics): {j['unjudged']}")
        shift = ", ".join(f"{k} {v:+.3f}" for k, v in res["shift"].items()
                          if k != "n" and v is not None)
        console.print(f"score shift with the judge's leaves ({m}), over the "
                      f"{res['shift']['n']} episodes judged both ways: {shift or 'none'}")
    console.print(f"verdicts: {rows_path}; agreement: {run / 'rubric' / 'agreement.json'}")
