"""The `webmdp` command."""

from __future__ import annotations

import atexit
import functools
import gc
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click import Command, Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from webmdp.cli.common import fail, prose
from webmdp.cli.ranges import guard

COMMANDS: dict[str, str] = {
    "run": "run_cmd:run", "report": "report_cmd:report", "validate": "validate_cmd:validate",
    "check": "validate_cmd:check", "demo": "demo_cmd:demo", "view": "view_cmd:view",
}
"""The commands, ``module:function`` in :mod:`webmdp.cli`, in the order help lists them
(``trace-schema`` and the groups follow)."""
GROUPS: dict[str, str] = {
    "tasks": "tasks_cmd", "agents": "agents_cmd", "import": "import_cmd", "synth": "synth_cmd",
    "forge": "forge_cmd", "rubric": "rubric_cmd", "sites": "sites_cmd", "rl": "rl_cmd",
    "cache": "cache_cmd",
}
"""The command groups, each a module of :mod:`webmdp.cli` with its Typer ``app``."""


def _load(name: str) -> Command:
    """The click command ``name`` as the ``webmdp`` app builds it, its module imported now: a
    command line imports only the command it runs."""
    one = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    if name in GROUPS:
        one.add_typer(importlib.import_module(f"webmdp.cli.{GROUPS[name]}").app, name=name)
    else:
        module, attr = COMMANDS[name].split(":")
        command = getattr(importlib.import_module(f"webmdp.cli.{module}"), attr)
        one.command(name, help=prose(command.__doc__))(command)
    return guard(typer.main.get_group(one).commands[name], name)


class WebmdpGroup(TyperGroup):
    """The `webmdp` group: every option checked from :mod:`webmdp.cli.ranges` while the
    command line is parsed, and a usage error (a bad value, a missing or unknown option)
    printed as one line, ``error: <message>``, with exit status 2."""

    _commands: dict[str, Command]

    def __init__(self, **attrs: Any) -> None:
        self._pending = [*COMMANDS, *GROUPS]  # loaded when named (get_command) or listed
        self._hold = True
        super().__init__(**attrs)
        guard(self)  # the commands built already (trace-schema); _load guards the others
        self._hold = False

    @property  # type: ignore[override]
    def commands(self) -> dict[str, Command]:
        """Every command, in help's order (loading those not loaded yet)."""
        if self._pending and not self._hold:
            for name in list(self._pending):
                self._get(name)
            order = [*COMMANDS, "trace-schema", *GROUPS]
            self._commands = {**{n: self._commands[n] for n in order if n in self._commands},
                              **self._commands}
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, Command]) -> None:
        self._commands = value

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        return self._get(cmd_name) if cmd_name in self._pending else super().get_command(
            ctx, cmd_name)

    def _get(self, name: str) -> Command:
        self._commands[name] = _load(name)
        self._pending.remove(name)
        return self._commands[name]

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        _fast_exit()
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


@functools.cache
def _fast_exit() -> None:
    """At the interpreter's exit, freeze what is left (gc.freeze): the final collection then
    skips it instead of walking every object a command built (a run's tasks and worlds: about
    a second after a 600-task run). Registered once, when the command runs."""
    atexit.register(gc.freeze)


def _show_version(value: bool) -> None:
    if value:
        from webmdp.version import __version__

        typer.echo(f"webmdp {__version__}")
        raise typer.Exit()


def _root(version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_show_version,
        help="Print the installed version (CHANGELOG.md lists what each changed) and exit."),
          ) -> None:
    """The group's own callback (``--version`` alone): with the commands loaded lazily, it
    makes ``app`` a group even though ``trace-schema`` is the only command it registers."""


app = typer.Typer(
    cls=WebmdpGroup,
    callback=_root,
    name="webmdp",
    help="Process-level evaluation of web agents on deterministic semantic-MDP websites.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.command("trace-schema")
def trace_schema() -> None:
    """Print the JSON schema of an episode trace."""
    from webmdp.trace import EpisodeTrace

    typer.echo(json.dumps(EpisodeTrace.model_json_schema(), indent=2))


if __name__ == "__main__":
    app()
