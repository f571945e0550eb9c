"""`webmdp agents`: list agents, grammars and providers; `agents parse` debugs a model output."""

from __future__ import annotations

import json
import sys

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from webmdp.cli.common import user_errors
from webmdp.errors import ConfigError, unknown_choice

app = typer.Typer(help="Agents, action grammars and model providers.", no_args_is_help=False)

BUILTIN = {"oracle": "replays the task's oracle trajectory",
           "random": "uniform over the offered actions (a baseline)",
           "greedy": "searches, opens the first result and commits (a baseline that ignores "
                     "hard negatives)",
           "pixel": "reads visual values from the screenshot (browser mode, visual tasks)",
           "axtext": "pixel's plan, looking for the values in the accessibility tree"}
PARADIGMS = {"step": "step-by-step (ReAct): one thought + action per turn",
             "plan": "full plan in advance, replans on divergence",
             "tree": "best-first tree search with V(s) from the model or --value oracle"}


@app.callback(invoke_without_command=True)
def agents(ctx: typer.Context) -> None:
    """List agents, grammars and providers (with the extra each provider needs)."""
    if ctx.invoked_subcommand is not None:
        return
    from webmdp.agents.llm.clients import provider_info, provider_names
    from webmdp.agents.llm.grammars import get_grammar, grammar_info, grammar_names
    from webmdp.agents.registry import AGENTS, READS_TASK

    out = Console()  # tables go to stdout
    t = Table(title="Agents (webmdp run --agent)")
    for col in ("agent", "kind", "what it does", "what it sees"):
        t.add_column(col)
    for name, doc in BUILTIN.items():
        sees = (f"also {READS_TASK[name]}: not a baseline" if name in READS_TASK
                else "the instruction and the observations")
        t.add_row(name, "built in", doc, sees)
    for name, doc in PARADIGMS.items():
        t.add_row(name, "model (--model)", doc, "the instruction and the observations")
    for entry in AGENTS.entries().values():
        if not entry.builtin:
            t.add_row(entry.name, f"plugin ({entry.package} {entry.version})", entry.target,
                      "")
    out.print(t)
    g = Table(title="Action grammars (--grammar)")
    for col in ("grammar", "family", "modes", "channel", "default view"):
        g.add_column(col)
    for info in map(grammar_info, grammar_names()):
        view = ", ".join(k for k, on in (("screenshots", info.screenshot),
                                         ("accessibility tree", info.axtree)) if on)
        if info.screenshot:
            view += f" (last {max(1, info.history_images)}, {info.image_policy})"
        g.add_row(info.name, info.family, "/".join(get_grammar(info.name).modes), info.channel,
                  view)
    out.print(g)
    p = Table(title="Providers (--model PROVIDER/MODEL)")
    for col in ("provider", "install", "key / URL from", "default URL", "what"):
        p.add_column(col)
    for prov in map(provider_info, provider_names()):
        p.add_row(prov.name, escape(f"pip install 'webmdp[{prov.extra}]'"),
                  f"{prov.key_env}, {prov.url_env}", prov.default_url or "the SDK's",
                  prov.description)
    out.print(p)


@app.command("parse")
def parse(
    grammar: str = typer.Option(..., "--grammar", "-g", help="uitars, qwen, fara, openai-cua, "
                                "anthropic-cua, axtree or json."),
    image_size: str | None = typer.Option(None, "--image-size", help="WxH of the image the "
                                          "model saw (default: the family's view of the "
                                          "1440x900 viewport, e.g. 1428x896 for uitars)."),
    coords: str | None = typer.Option(None, help="absolute, relative1000 or normalized1 "
                                      "(default: the grammar's)."),
    mode: str = typer.Option("browser", help="browser or semantic (json grammar)."),
) -> None:
    """Parse one raw model output from stdin; print the action as JSON in viewport pixels
    (a GUIAction dict, or {"kind": "invalid", "error": ...})."""
    with user_errors():
        from webmdp.agents.llm.grammars import ParseContext, get_grammar, grammar_info
        from webmdp.agents.llm.grammars.base import parse_output
        from webmdp.agents.llm.images import model_image_size

        info = grammar_info(grammar)
        g = get_grammar(grammar)
        if mode not in ("browser", "semantic"):
            raise unknown_choice("mode", mode, ("browser", "semantic"))
        if mode not in g.modes:
            raise ConfigError(f"grammar {grammar} parses {' / '.join(g.modes)} outputs")
        size = _size(image_size) if image_size else model_image_size(info.image_policy)
        conv = coords or g.default_coords
        if conv not in ("absolute", "relative1000", "normalized1"):
            raise unknown_choice("coordinate convention", conv,
                                 ("absolute", "relative1000", "normalized1"))
        ctx = ParseContext(mode=mode, image_size=size, coords=conv)  # type: ignore[arg-type]
        parsed = parse_output(g, sys.stdin.read(), ctx)
        typer.echo(json.dumps(parsed.to_json(), ensure_ascii=False))
        if not parsed.ok:
            raise typer.Exit(code=1)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ConfigError(f"--image-size must be WIDTHxHEIGHT, e.g. 1428x896; got {text!r}"
                          ) from None
    if w <= 0 or h <= 0:
        raise ConfigError(f"--image-size must be positive, got {text!r}")
    return w, h
