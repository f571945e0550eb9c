"""`webmdp cache`: fill the disk cache of generated task sets ahead of time (for an image or a
cluster's shared disk, so no server or worker starts cold) and list what it holds."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from webmdp.cli.common import fail, user_errors
from webmdp.errors import unknown_choice

app = typer.Typer(help="The disk cache of generated task sets ($WEBMDP_CACHE_DIR, default "
                       "~/.cache/webmdp), which every process and worker reads.",
                  no_args_is_help=True)



@app.command("build")
def build(
    site: Annotated[str, typer.Option("--site", help="A site, or 'all' (every site; with no "
                                      "--suite, the cross-site suite too).")] = "all",
    suite: Annotated[str | None, typer.Option("--suite", help="builtin (the sites' built-in "
                                              "and dial sets), cross-site (the cross-site "
                                              "suite) or grid (the grid suite of the sites); "
                                              "default: builtin and cross-site for --site "
                                              "all, builtin for one site.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes that build the "
                                         "sets at once (default: the usable CPUs).")] = 0,
) -> None:
    """Build every task set serving SITE reads (`rl serve`, `run`, the TRL environment) and
    store it in the disk cache; sets already there are only read. Deterministic: the entries
    are those any process would build."""
    from webmdp.core.registry import site_names
    from webmdp.tasks.cache import cache_dir, code_key
    from webmdp.tasks.select import SUITES
    from webmdp.tasks.sources import CROSS, GRID, build_parallel, cache_names

    if suite is not None and suite not in SUITES:
        raise fail(f"--suite must be one of {', '.join(SUITES)}, got {suite!r}")
    if site != "all" and site not in site_names():
        with user_errors():
            raise unknown_choice("site", site, ["all", *site_names()])
    root = cache_dir()
    if root is None:
        raise fail("the disk cache is off (WEBMDP_CACHE_DIR=off): nothing to build")
    sites = list(site_names()) if site == "all" else [site]
    if suite == CROSS:
        scopes = [CROSS]
    elif suite == GRID:
        scopes = []
    elif site != "all":
        scopes = [site]
    else:  # --site all: each site apart under --suite builtin, else the cross-site suite too
        scopes = list(site_names()) if suite == "builtin" else ["all"]
    for scope in scopes:
        typer.echo(f"building {scope}: {', '.join(cache_names(scope))} ...", err=True)
    if suite == GRID:
        typer.echo(f"building the grid suite of {', '.join(sites)} ...", err=True)
    from webmdp.runner.limits import usable_cpus

    t0 = time.monotonic()
    build_parallel([] if suite in (CROSS, GRID) else sites,
                   cross=suite == CROSS or (suite is None and site == "all"),
                   grid=sites if suite == GRID else (),
                   workers=min(max(1, workers or usable_cpus()), 64))
    typer.echo(f"  done in {time.monotonic() - t0:.1f} s", err=True)
    typer.echo(f"cache: {root / 'tasks' / code_key()}")


@app.command("info")
def info(as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False
         ) -> None:
    """What the disk cache holds: per kind and code version (the newest kept; `this` marks
    the installed webmdp's), each entry with its size."""
    from webmdp.tasks.cache import cache_dir, code_key

    root = cache_dir()
    if root is None:
        raise fail("the disk cache is off (WEBMDP_CACHE_DIR=off)")
    current = code_key()
    rows: list[dict[str, Any]] = []
    for kind in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        for key in sorted((p for p in kind.iterdir() if p.is_dir()),
                          key=lambda p: p.stat().st_mtime, reverse=True):
            files = sorted(f for f in key.iterdir() if f.is_file() and not f.name.startswith("."))
            rows.append({"kind": kind.name, "key": key.name, "this": key.name == current,
                         "bytes": sum(f.stat().st_size for f in files),
                         "entries": {f.name: f.stat().st_size for f in files}})
    if as_json:
        typer.echo(json.dumps({"dir": str(root), "key": current, "versions": rows}, indent=1))
        return
    typer.echo(f"{root} (this webmdp: {current})")
    if not rows:
        typer.echo("  empty: `webmdp cache build` fills it")
    for r in rows:
        mark = "  this" if r["this"] else ""
        typer.echo(f"  {r['kind']}/{r['key']}{mark}: {len(r['entries'])} entries, "
                   f"{_size(r['bytes'])}")
        if r["this"]:
            for name, size in r["entries"].items():
                typer.echo(f"    {name:40s} {_size(size):>9s}")


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    return f"{n / 1024:.1f} KB" if n < 1024 ** 2 else f"{n / 1024 ** 2:.1f} MB"

