"""`webmdp import webstep PATH... --out RUN`: bring episodes recorded by others into a run."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from webmdp.cli.common import console, fail, user_errors

app = typer.Typer(help="Import episodes recorded by others into a run directory.",
                  no_args_is_help=True)


@app.callback()
def sources() -> None:
    """Import episodes recorded by others into a run directory (one command per source)."""


@app.command("webstep")
def webstep(
    paths: list[Path] = typer.Argument(..., help="Bundle files, or directories searched "
                                       "recursively for *.json (e.g. WebSTEP's data/)."),
    out: Path = typer.Option(..., "--out", "-o", help="Run directory to write (created; "
                             "episodes of the same agent and task are replaced)."),
) -> None:
    """Import published WebSTEP episode bundles: tasks, browser-mode traces, results, and the
    values each bundle records that we recompute (recorded.jsonl). Prints the counts, every
    skipped file with its reason, and the recorded-vs-recomputed disagreements."""
    from webmdp.eval.disagreements import find_disagreements
    from webmdp.eval.importers import import_webstep

    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file, not a run directory")
    with user_errors():
        try:
            summary = import_webstep(paths, out)
        except OSError as e:
            raise fail(f"cannot write the run {out}: {e.strerror or e}") from None
    for path, reason in summary.skipped:
        console.print(f"[yellow]skipped[/yellow] {escape(path)}: {escape(reason)}",
                      highlight=False, soft_wrap=True)
    if not summary.imported:
        raise fail(f"no bundle imported from {', '.join(map(str, paths))} "
                   f"({len(summary.skipped)} skipped)")
    for warning in summary.warnings:
        console.print(f"[dim]note[/dim] {escape(warning)}", highlight=False, soft_wrap=True)
    for line in summary.conformance:
        console.print(f"[dim]site[/dim] {escape(line)}", highlight=False, soft_wrap=True)
    with user_errors():
        found = find_disagreements(out)
    typer.echo(f"imported {len(summary.imported)} episode(s) into {out}, skipped "
               f"{len(summary.skipped)}; {len(found)} recorded-vs-recomputed disagreement(s)")
    for d in found:
        typer.echo(f"  {d.task_id} {d.agent} {d.field}: recorded {d.recorded!r}, recomputed "
                   f"{d.recomputed!r} ({d.note})")
