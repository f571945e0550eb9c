"""`webmdp validate` and `webmdp check`: conformance and GUI replay of every oracle."""

from __future__ import annotations

import time

import typer

from webmdp.cli.common import (
    SUITES,
    check_difficulty,
    check_noise,
    console,
    fail,
    progress,
    select_tasks,
    user_errors,
)
from webmdp.runner.limits import check_workers


def validate(
    site: str | None = typer.Option(None, "--site", "-s", help="Site, comma-separated sites, "
                                    "or 'all' (required for the builtin suite; with "
                                    "--suite cross-site, the tasks whose sites include it)."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Only N (at least 1) tasks "
                                     "per site (spread over its templates and hard-negative "
                                     "counts)."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes (at least 1), "
                                "each with its own server and Chromium (chunks of 12 "
                                "oracles)."),
    noise: str = typer.Option("none", "--noise", help="Replay under real-web noise (none, "
                              "light, real, real-time; see `webmdp run --help`): the oracle "
                              "closes what is in its way, and the semantic trace must still "
                              "equal the MDP replay."),
    suite: str = typer.Option("builtin", "--suite", help="'builtin' (the sites' tasks), "
                              "'cross-site' (the cross-site tasks, one episode over 2-4 sites), "
                              "'grid' (40 tasks per site and WebForge level; --limit then "
                              "spreads over the selection) or a JSONL task file."),
) -> None:
    """Replay every oracle in Chromium (WebSTEP E.1 levels 1-3): the GUI must produce the same
    semantic trace as the MDP replay and pass the verifier."""
    from webmdp.runner.validate import validate_sites
    from webmdp.sites import site_names

    t0 = time.perf_counter()
    with user_errors():
        check_noise(noise)
        check_workers(workers)
        if suite != "builtin":
            tasks = select_tasks(site, limit=limit, spread=True, suite=suite)
            if suite not in SUITES:
                check_difficulty([t for t in tasks if t.cross is None], suite)
        elif site is None:
            raise fail("--site is required (a site, comma-separated sites or 'all'), or "
                       "give --suite cross-site / --suite FILE")
        else:
            names = site_names() if site == "all" else [s.strip() for s in site.split(",")]
            tasks = [t for name in names for t in select_tasks(name, limit=limit, spread=True)]
        with progress() as bar:
            job = bar.add_task(f"validate {site or suite}", total=len(tasks))
            reports = validate_sites(tasks, workers, on_tasks=lambda n: bar.advance(job, n),
                                     noise=noise)
    wall = time.perf_counter() - t0
    for rep in reports:
        if len(reports) > 1:
            console.print(f"[bold]{rep.site}[/bold]")
        for level, probs in (("1 (MDP)", rep.level1), ("2 (GUI interaction)", rep.level2),
                             ("3 (GUI replay)", rep.level3)):
            mark = "[green]ok[/green]" if not probs else f"[red]{len(probs)} problem(s)[/red]"
            console.print(f"level {level}: {mark}")
            for p in probs[:20]:
                console.print(f"  - {p}", highlight=False)
    console.print(f"{sum(r.tasks for r in reports)} oracles replayed, "
                  f"{sum(r.pages_checked for r in reports)} pages checked in {wall:.1f} s "
                  f"({workers} worker{'s' if workers > 1 else ''})")
    if not all(r.ok for r in reports):
        raise typer.Exit(code=1)


def check(site: str = typer.Option("all", "--site", "-s", help="Site name, or 'all'.")) -> None:
    """Run the site conformance checker (no browser)."""
    from webmdp.agents.fitness import baseline_fit
    from webmdp.conformance import check_site
    from webmdp.sites import get_site, site_names

    names = site_names() if site == "all" else [site]
    bad = 0
    with user_errors():
        for name in names:
            rep = check_site(get_site(name))
            status = "[green]ok[/green]" if rep.ok else f"[red]{len(rep.problems)} problem(s)[/red]"
            console.print(f"{name}: {status} ({rep.tasks_checked} tasks, {rep.states_visited} "
                          f"states, {len(rep.actions_reached)} actions reached)")
            for p in rep.problems:
                console.print(f"  - {p}", highlight=False)
            fit = baseline_fit(get_site(name), rep.tasks)
            for i, line in enumerate(fit.lines()):
                console.print(f"  {'baselines' if i == 0 else '  note'}: {line}", highlight=False)
            bad += not rep.ok
    if bad:
        raise fail(f"{bad} site(s) failed conformance")
