"""`webmdp sites`: the registered sites (webmdp's own and installed plugins), their CAP site
cards (CAP 3.1) and how much of CAP's taxonomy they cover."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from webmdp.cli.common import user_errors

app = typer.Typer(help="Registered sites, site cards <F, A, P> and CAP taxonomy coverage.",
                  no_args_is_help=True)


@app.command("list")
def list_sites(
    as_json: bool = typer.Option(False, "--json", help="Print the sites as JSON."),
) -> None:
    """Every registered site: webmdp's ten (what --site all means) and those installed packages
    add through the entry-point group webmdp.sites, with the package, its version and the
    site's task count. A plugin that cannot load is listed with its error."""
    from webmdp.core.registry import SITES, get_site
    from webmdp.errors import WebMDPError
    from webmdp.tasks.generate import plan

    rows: list[dict[str, Any]] = []
    with user_errors():
        entries = SITES.entries()
    for name in sorted(entries, key=lambda n: (not entries[n].builtin, n)):
        entry = entries[name]
        row = {"site": name, "package": entry.package, "version": entry.version,
               "builtin": entry.builtin, "tasks": None, "templates": None, "error": None}
        try:
            site = get_site(name)
            row.update(tasks=len(plan(site)), templates=len(site.templates), title=site.title)
        except (WebMDPError, ImportError) as exc:
            row["error"] = str(exc)
        rows.append(row)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table("site", "package", "version", "tasks", "templates", "title", box=None)
    for r in rows:
        shown = r.get("title") or f"[red]{escape(r['error'])}[/red]"
        table.add_row(r["site"], r["package"], r["version"], str(r["tasks"] or "-"),
                      str(r["templates"] or "-"), shown)
    Console(width=160).print(table)


@app.command("card")
def card(
    site: str = typer.Argument(..., help="Site name, e.g. shopping."),
    as_json: bool = typer.Option(False, "--json", help="Print the card as JSON."),
) -> None:
    """A site's card: functions F, execution items A, perception items P (derived from its
    declarations and rendered views)."""
    from webmdp.cap import action_type, perception_type, site_card
    from webmdp.sites import get_site

    with user_errors():
        get_site(site)
    c = site_card(site)
    if as_json:
        typer.echo(json.dumps(c.to_dict(), indent=2))
        return
    out = Console(width=160)
    out.print(f"[bold]{site}[/bold]: {c.states} states crawled, {c.pages} pages rendered")
    fns = Table("function", "category", "actions", "surfaces", box=None,
                title=f"Functions F ({len(c.functions)})", title_justify="left")
    for f in c.functions:
        fns.add_row(f.name, f.category, ", ".join(f.actions), ", ".join(f.surfaces))
    out.print(fns)
    acts = Table("type", "action type", "component", "function", "actions", "surfaces", box=None,
                 title=f"Execution items A ({len(c.execution)}; "
                       f"{len(c.action_type_ids())} action types; "
                       f"{len(c.plain)} plain controls not listed)", title_justify="left")
    for i in c.execution:
        t = action_type(i.type_id or "")
        acts.add_row(t.id, f"{t.component}: {t.name}", i.component, i.function,
                     ", ".join(i.actions), ", ".join(i.surfaces))
    out.print(acts)
    looks = Table("type", "perception type", "component", "function", "surfaces", box=None,
                  title=f"Perception items P ({len(c.perception)}; "
                        f"{len(c.perception_type_ids())} perception types)",
                  title_justify="left")
    for p in c.perception:
        pt = perception_type(p.type_id)
        looks.add_row(pt.id, f"{pt.component}: {pt.name}", p.component, p.function,
                      ", ".join(p.surfaces))
    out.print(looks)


@app.command("coverage")
def coverage(
    as_json: bool = typer.Option(False, "--json", help="Print the coverage as JSON."),
) -> None:
    """Covered / total CAP action and perception types over every site's card, per category
    and overall (a type counts when a widget on some site's page exercises it)."""
    from webmdp.cap import action_type, coverage, perception_type, site_card
    from webmdp.sites import site_names

    cov = coverage(site_card(n) for n in site_names())
    if as_json:
        typer.echo(json.dumps(cov, indent=2))
        return
    out = Console(width=160)
    for kind, cats in (("action", cov["action_categories"]),
                       ("perception", cov["perception_categories"])):
        table = Table("category", "covered", "total", box=None, title_justify="left",
                      title=f"{kind.capitalize()} types: {cov[f'{kind}_types_covered']} / "
                            f"{cov[f'{kind}_types_total']}")
        for name, row in cats.items():
            table.add_row(name, str(row["covered"]), str(row["total"]))
        out.print(table)
    missing_a = [f"{t} {action_type(t).component}: {action_type(t).name}"
                 for t in cov["uncovered_action_types"]]
    missing_p = [f"{t} {perception_type(t).component}: {perception_type(t).name}"
                 for t in cov["uncovered_perception_types"]]
    out.print(f"Uncovered action types ({len(missing_a)}): " + "; ".join(missing_a))
    out.print(f"Uncovered perception types ({len(missing_p)}): " + "; ".join(missing_p))
