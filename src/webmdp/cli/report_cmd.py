"""`webmdp report`: Markdown tables (WebSTEP Table 2 style) or JSON for a run directory."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from webmdp.cli.common import fail, user_errors


def report(
    run_dir: Path = typer.Argument(..., help="A directory written by `webmdp run`."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: the aggregate's keys at the "
                                 "top level, breakdowns under by_agent, by_template, ..."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Also write the report here."),
) -> None:
    """Compute process metrics from the traces in RUN_DIR and print the report."""
    from webmdp.eval import json_report, markdown_report, metrics_rows

    if not run_dir.is_dir():
        raise fail(f"no run directory {run_dir}")
    with user_errors():
        rows = metrics_rows(run_dir)
    if not rows:
        raise fail(f"no episodes in {run_dir}")
    if as_json:
        rep = json_report(rows)
        text = json.dumps({**rep.pop("aggregate"), **rep}, indent=2)
    else:
        text = markdown_report(rows)
    typer.echo(text)
    if out is not None:
        out.write_text(text + "\n")
