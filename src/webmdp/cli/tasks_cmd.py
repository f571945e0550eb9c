"""`webmdp tasks`: list, show and generate tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from webmdp.cli.common import (
    check_difficulty,
    console,
    fail,
    progress,
    select_tasks,
    user_errors,
)
from webmdp.tasks.io import write_tasks

app = typer.Typer(help="List, show and generate benchmark tasks.", no_args_is_help=True)

SITE = typer.Option("all", "--site", "-s", help="Site name, or 'all'. With --suite "
                    "cross-site: the cross-site tasks whose sites include it.")
SUITE = typer.Option("builtin", "--suite", help="'builtin' (every site's generated tasks), "
                     "'cross-site' (the generated cross-site tasks, CAP), 'grid' (40 tasks per "
                     "site and WebForge level 1-3) or a JSONL task file.")


@app.command("list")
def list_tasks(
    site: str = SITE,
    template: str | None = typer.Option(None, help="Only this template."),
    limit: int | None = typer.Option(None, help="Show at most N tasks (N at least 1)."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
    suite: str = SUITE,
) -> None:
    """One line per task: id, template, complexity and instruction."""
    with user_errors():
        tasks = select_tasks(site, tasks_file=tasks_file, template=template, limit=limit,
                             suite=suite)
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
    from webmdp.tasks.dial import is_dial_id

    site = None if is_dial_id(task_id) else task_id.rsplit("_", 1)[0]
    with user_errors():
        (task,) = select_tasks(None if tasks_file is not None else site, tasks_file=tasks_file,
                               task_ids=[task_id])
    exclude = None if world else {"world"}
    typer.echo(task.model_dump_json(indent=2, exclude=exclude))


@app.command("generate")
def generate(
    out: Path = typer.Option(..., "--out", "-o", help="JSONL file to write."),
    site: str = SITE,
    template: str | None = typer.Option(None, help="Only this template."),
    limit: int | None = typer.Option(None, help="At most N tasks (N at least 1); with the "
                                     "dial, the number wanted (default 10)."),
    level: int | None = typer.Option(None, "--level", help="Dial: tasks whose measured "
                                     "overall WebForge level is 1, 2 or 3."),
    dims: str | None = typer.Option(None, "--dims", help="Dial: dimension levels the measured "
                                    "vector must have, e.g. depth=3,risk=2 (names: depth, "
                                    "breadth, interaction, visual, info, reasoning, risk)."),
    domain: str | None = typer.Option(None, "--domain", help="Dial: only templates of this "
                                      "WebForge domain, D1..D7 (see `tasks stats`)."),
    suite: str = typer.Option("builtin", "--suite", help="'builtin' (the sites' generated "
                              "tasks), 'cross-site' (CAP's cross-site tasks over 2-4 sites: "
                              "the first N of the deterministic stream, 350 by default) or "
                              "'grid' (40 tasks per site and WebForge level 1-3)."),
) -> None:
    """Generate tasks (deterministic: same ids and seeds give the same bytes) into a file.

    With --level, --dims or --domain it turns the difficulty dial: it searches each site's
    stream of candidate tasks (templates x hard negatives x seeded worlds) for ones whose
    measured vector meets the request, and names them SITE_L<level>_NNNN (`tasks show`,
    `run --task` and `webmdp.make` resolve those names)."""
    if suite not in ("builtin", "cross-site", "grid"):
        raise fail(f"--suite for generate is 'builtin', 'cross-site' or 'grid', not {suite!r}")
    if suite != "builtin" and (level is not None or dims is not None or domain is not None):
        raise fail(f"the difficulty dial (--level, --dims, --domain) draws single-site tasks "
                   f"of its own; it does not combine with --suite {suite}")
    if suite == "cross-site":
        _cross(out, site, template, limit)
        return
    if level is None and dims is None and domain is None:
        with user_errors():
            tasks = select_tasks(site, template=template, limit=limit, suite=suite)
        write_tasks(out, tasks)
        console.print(f"wrote {len(tasks)} tasks to {out}")
        return
    _dial(out, site, template, limit or 10, level, dims, domain)


def _cross(out: Path, site: str, template: str | None, limit: int | None) -> None:
    from webmdp.cap.compose import DEFAULT_COUNT, generate_cross_tasks
    from webmdp.tasks.select import select_cross

    filtered = site != "all" or template is not None
    count = DEFAULT_COUNT if filtered else (limit or DEFAULT_COUNT)
    with user_errors():
        with console.status(f"composing {count} cross-site tasks (each oracle replayed and "
                            "verified)..."):
            tasks = generate_cross_tasks(max(count, limit or 0))
        if filtered:
            tasks = select_cross(tasks, site=site, template=template, limit=limit)
    write_tasks(out, tasks)
    n_sites = len({s for t in tasks for s in t.sites or ()})
    console.print(f"wrote {len(tasks)} cross-site tasks over {n_sites} sites to {out}")


def _dial(out: Path, site: str, template: str | None, limit: int, level: int | None,
          dims: str | None, domain: str | None) -> None:
    from webmdp.sites import get_site, site_names
    from webmdp.tasks.dial import Request, parse_dims, search
    from webmdp.tasks.domains import check_domain
    from webmdp.tasks.select import names

    with user_errors():
        request = Request(level, parse_dims(dims), check_domain(domain) if domain else None)
        sites = names(site) or site_names()
        for name in sites:
            get_site(name)
        if template is not None:
            raise fail("--template does not combine with the dial (it searches every "
                       "template); use --site and --dims")
    with console.status("turning the dial (measuring candidate tasks)..."):
        found, nearest = search(request, sites, limit)
    if not found:
        wanted = ", ".join([*([f"level {level}"] if level else []),
                            *([dims] if dims else []), *([domain] if domain else [])])
        lines = [f"  {list(t.difficulty.vector)} level {t.difficulty.level}  {t.id} "
                 f"({t.template})" for t in nearest[:5] if t.difficulty is not None]
        raise fail(f"no task of {', '.join(sites)} meets {wanted}; the nearest vectors the "
                   "dial reaches (depth, breadth, interaction, visual, info, reasoning, risk):"
                   "\n" + "\n".join(lines))
    write_tasks(out, found)
    short = f" (fewer than the {limit} asked: the streams ran out)" if len(found) < limit else ""
    console.print(f"wrote {len(found)} dial tasks to {out}{short}")


@app.command("check")
def check(
    tasks_file: Path = typer.Argument(..., help="A JSONL task file (e.g. from `tasks "
                                      "generate`)."),
) -> None:
    """Check a task file against the MDP: every task's stored difficulty vector and level must
    be what measuring it gives (one oracle replay per task). Exits 2 on the first mismatch,
    naming the task and both vectors. Reading a file (`run --tasks`, `--suite FILE`) checks
    its format only; `run` checks the tasks it runs, `validate --suite FILE` the whole file.
    Not the site conformance checker (`webmdp check`)."""
    from webmdp.cli.common import read_task_file

    with user_errors():
        tasks = [t for t in read_task_file(tasks_file) if t.cross is None]
        with progress() as bar:
            job = bar.add_task(f"measure {tasks_file.name}", total=len(tasks))
            check_difficulty(tasks, tasks_file, on_done=lambda n: bar.advance(job, n))
    measured = sum(t.difficulty is not None for t in tasks)
    typer.echo(f"{tasks_file}: {measured} stored difficulty vectors agree with the measured "
               f"ones ({len(tasks) - measured} without a stored vector)")


STATS_BY = ("level", "dimension", "site")


@app.command("stats")
def stats(
    suite: str = SUITE,
    site: str = SITE,
    by: str = typer.Option("level,dimension", "--by", help="Comma-separated tables: 'level' "
                           "(tasks per overall level), 'dimension' (tasks per level of each of "
                           "the seven dimensions, WebForge Table 7), 'site' (the level table "
                           "per site)."),
    as_json: bool = typer.Option(False, "--json", help="Print the counts as one JSON object."),
) -> None:
    """Task counts by WebForge difficulty: overall level and the seven dimensions. For the
    cross-site suite: CAP's Table 2 (clusters, websites, functions, execution and perception
    items: distinct types, and per task average, min, max) and tasks per DAG pattern and per
    number of sites."""
    import json

    from webmdp.errors import unknown_choice
    from webmdp.tasks.difficulty import TITLES, counts

    tables = [b.strip() for b in by.split(",") if b.strip()]
    for name in tables:
        if name not in STATS_BY:
            raise fail(str(unknown_choice("--by table", name, list(STATS_BY))))
    with user_errors():
        tasks = select_tasks(site, suite=suite)
    if any(t.cross is not None for t in tasks):
        _cross_stats(tasks, as_json)
        return
    total = counts(tasks)
    per_site = {s: counts([t for t in tasks if t.site == s])
                for s in sorted({t.site for t in tasks})} if "site" in tables else {}
    grid = None
    if suite == "grid":
        from webmdp.forge.grid import table8
        from webmdp.sites import site_names
        from webmdp.tasks.select import names

        grid = table8(tasks, site_names() if site == "all" else names(site))
    if as_json:
        out = {**total, **({"sites": per_site} if per_site else {}),
               **({"table8": grid} if grid else {})}
        typer.echo(json.dumps(out, sort_keys=True))
        return
    from rich.console import Console

    show = Console(width=160)
    n = max(1, total["n"])

    def cell(k: int) -> str:
        return f"{k} ({100 * k / n:.1f}%)"

    if "level" in tables:
        table = Table("level", "tasks", title=f"{total['n']} tasks by overall level")
        for level, k in total["level"].items():
            table.add_row(level, cell(k))
        show.print(table)
    if "dimension" in tables:
        table = Table("dimension", "L1", "L2", "L3",
                      title=f"{total['n']} tasks by dimension level (WebForge Table 7)")
        for dim, ks in total["dimension"].items():
            table.add_row(TITLES[dim], *(cell(v) for v in ks.values()))
        show.print(table)
    if per_site:
        table = Table("site", "tasks", "L1", "L2", "L3", "none", title="overall level by site")
        for name, c in per_site.items():
            table.add_row(name, str(c["n"]), *(str(v) for v in c["level"].values()))
        show.print(table)
    if grid:
        _grid_tables(show, grid)


def _grid_tables(show: Any, grid: dict[str, Any]) -> None:
    """WebForge's Table 8 for the grid suite: tasks per domain and level, and per site and
    level the pass rate (accepted / planned) with what Refine rejected."""
    from webmdp.tasks.domains import DOMAINS

    table = Table("domain", "L1", "L2", "L3", "total",
                  title="grid tasks by domain and level (WebForge Table 8)")
    for d, c in grid["domains"].items():
        table.add_row(f"{d} {DOMAINS[d]}", *(str(v) for v in c.values()), str(sum(c.values())))
    show.print(table)
    table = Table("site", "L1", "L2", "L3", title="grid pass rate by site and level "
                  "(accepted / planned; refine rejections)")
    for name, c in grid["sites"].items():
        table.add_row(name, *(f"{v['count']}/{v['planned']} ({100 * v['rate']:.0f}%)"
                              + (f"; {_rejections(v['rejected'])}" if v["rejected"] else "")
                              for v in c.values()))
    show.print(table)


def _rejections(rejected: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(rejected.items()))


def _cross_stats(tasks: list, as_json: bool) -> None:
    import json

    from webmdp.cap.stats import table2

    out = table2(tasks)
    if as_json:
        typer.echo(json.dumps(out, sort_keys=True))
        return
    from rich.console import Console

    show = Console(width=160)
    table = Table("category", "types", "avg", "min", "max",
                  title=f"{out['n']} cross-site tasks (CAP Table 2)")
    for name, row in out["table2"].items():
        table.add_row(name, str(row["types"]), f"{row['avg']:.1f}", str(row["min"]),
                      str(row["max"]))
    show.print(table)
    for key, title in (("patterns", "tasks per DAG pattern"),
                       ("sites_per_task", "tasks per number of sites"),
                       ("site_tasks", "tasks per site")):
        table = Table(key.replace("_", " "), "tasks", title=title)
        for name, k in out[key].items():
            table.add_row(str(name), str(k))
        show.print(table)
