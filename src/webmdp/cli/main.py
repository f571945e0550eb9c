"""The `webmdp` command."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from webmdp.cli import (
    agents_cmd,
    demo_cmd,
    forge_cmd,
    import_cmd,
    report_cmd,
    rl_cmd,
    rubric_cmd,
    run_cmd,
    sites_cmd,
    synth_cmd,
    tasks_cmd,
    validate_cmd,
    view_cmd,
)
from webmdp.cli.common import fail, prose
from webmdp.cli.ranges import guard


class WebmdpGroup(TyperGroup):
    """The `webmdp` group: every option checked from :mod:`webmdp.cli.ranges` while the
    command line is parsed, and a usage error (a bad value, a missing or unknown option)
    printed as one line, ``error: <message>``, with exit status 2."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        guard(self)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, windows_expand_args=windows_expand_args,
                              **extra)
        except NoArgsIsHelpError as exc:
            if not standalone_mode:
                raise
            exc.show()
            sys.exit(exc.exit_code)
        except UsageError as exc:
            if not standalone_mode:
                raise
            try:
                raise fail(" ".join(exc.format_message().split())) from None
            except typer.Exit as done:
                sys.exit(done.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=WebmdpGroup,
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
app.add_typer(rl_cmd.app, name="rl")


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
