"""The `webmdp` command."""

from __future__ import annotations

import inspect
import json

import typer

from webmdp.cli import (
    agents_cmd,
    demo_cmd,
    import_cmd,
    report_cmd,
    run_cmd,
    synth_cmd,
    tasks_cmd,
    validate_cmd,
    view_cmd,
)

app = typer.Typer(
    name="webmdp",
    help="Process-level evaluation of web agents on deterministic semantic-MDP websites.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(tasks_cmd.app, name="tasks")
app.add_typer(agents_cmd.app, name="agents")
app.add_typer(import_cmd.app, name="import")
app.add_typer(synth_cmd.app, name="synth")


def prose(doc: str | None) -> str:
    """A docstring as ``--help`` shows it: paragraphs kept, the source's line breaks inside a
    paragraph dropped (this Typer keeps them after the first paragraph, so Rich wrapped text
    that was already wrapped)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


for name, command in (("run", run_cmd.run), ("report", report_cmd.report),
                      ("validate", validate_cmd.validate), ("check", validate_cmd.check),
                      ("demo", demo_cmd.demo), ("view", view_cmd.view)):
    app.command(name, help=prose(command.__doc__))(command)


@app.command("trace-schema")
def trace_schema() -> None:
    """Print the JSON schema of an episode trace."""
    from webmdp.trace import EpisodeTrace

    typer.echo(json.dumps(EpisodeTrace.model_json_schema(), indent=2))


if __name__ == "__main__":
    app()
