"""`webmdp tasks`: list, show and generate tasks."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from webmdp.cli.common import console, in_range, select_tasks, user_errors
from webmdp.tasks.io import write_tasks

app = typer.Typer(help="List, show and generate benchmark tasks.", no_args_is_help=True)

SITE = typer.Option("all", "--site", "-s", help="Site name, or 'all'.")


@app.command("list")
def list_tasks(
    site: str = SITE,
    template: str | None = typer.Option(None, help="Only this template."),
    limit: int | None = typer.Option(None, help="Show at most N tasks (N at least 1)."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
) -> None:
    """One line per task: id, template, complexity and instruction."""
    if limit is not None:
        in_range("--limit", limit, 1)
    with user_errors():
        tasks = select_tasks(site, tasks_file=tasks_file, template=template, limit=limit)
    table = Table("id", "template", "HN", "oracle", "access", "instruction", box=None)
    for t in tasks:
        c = t.complexity
        table.add_row(t.id, t.template, str(c.hard_negative_count), str(c.oracle_length),
                      c.access_level, t.instruction)
    from rich.console import Console

    Console(width=200).print(table)


@app.command("show")
def show(
    task_id: str = typer.Argument(..., help="Task id, e.g. shopping_0010."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
    world: bool = typer.Option(False, "--world", help="Include the world's entities."),
) -> None:
    """Print one task as JSON (world omitted unless --world)."""
    site = task_id.rsplit("_", 1)[0]
    with user_errors():
        (task,) = select_tasks(site if tasks_file is None else None, tasks_file=tasks_file,
                               task_ids=[task_id])
    exclude = None if world else {"world"}
    typer.echo(task.model_dump_json(indent=2, exclude=exclude))


@app.command("generate")
def generate(
    out: Path = typer.Option(..., "--out", "-o", help="JSONL file to write."),
    site: str = SITE,
    template: str | None = typer.Option(None, help="Only this template."),
    limit: int | None = typer.Option(None, help="At most N tasks (N at least 1)."),
) -> None:
    """Generate tasks (deterministic: same ids and seeds give the same bytes) into a file."""
    if limit is not None:
        in_range("--limit", limit, 1)
    with user_errors():
        tasks = select_tasks(site, template=template, limit=limit)
    write_tasks(out, tasks)
    console.print(f"wrote {len(tasks)} tasks to {out}")
