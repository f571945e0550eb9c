"""`webmdp report`: Markdown tables (WebSTEP Table 2 style) or JSON for a run directory."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from webmdp.cli.common import fail, user_errors


def report(
    run_dir: Path = typer.Argument(..., help="A directory written by `webmdp run`."),
    as_json: bool = typer.Option(False, "--json", help="Print the aggregate as JSON."),
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
    text = json.dumps(json_report(rows), indent=2) if as_json else markdown_report(rows)
    typer.echo(text)
    if out is not None:
        out.write_text(text + "\n")
