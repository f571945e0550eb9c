"""The `webmdp` command."""

from __future__ import annotations

import json

import typer

from webmdp.cli import (
    agents_cmd,
    demo_cmd,
    forge_cmd,
    import_cmd,
    report_cmd,
    rubric_cmd,
    run_cmd,
    sites_cmd,
    synth_cmd,
    tasks_cmd,
    validate_cmd,
    view_cmd,
)
from webmdp.cli.common import prose

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
app.add_typer(forge_cmd.app, name="forge")
app.add_typer(rubric_cmd.app, name="rubric")
app.add_typer(sites_cmd.app, name="sites")


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
