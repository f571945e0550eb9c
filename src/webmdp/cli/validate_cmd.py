"""`webmdp validate` and `webmdp check`: conformance and GUI replay of every oracle."""

from __future__ import annotations

import time

import typer

from webmdp.cli.common import console, fail, progress, select_tasks, user_errors


def validate(
    site: str = typer.Option(..., "--site", "-s", help="Site to validate."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Only N tasks (spread)."),
) -> None:
    """Replay every oracle in Chromium (WebSTEP E.1 levels 1-3): the GUI must produce the same
    semantic trace as the MDP replay and pass the verifier."""
    from webmdp.runner.validate import validate_site

    t0 = time.perf_counter()
    with user_errors():
        tasks = select_tasks(site, limit=limit, spread=True)
        with progress() as bar:
            job = bar.add_task(f"validate {site}", total=len(tasks))
            rep = validate_site(site, tasks, on_task=lambda _t: bar.advance(job))
    wall = time.perf_counter() - t0
    for level, probs in (("1 (MDP)", rep.level1), ("2 (GUI interaction)", rep.level2),
                         ("3 (GUI replay)", rep.level3)):
        mark = "[green]ok[/green]" if not probs else f"[red]{len(probs)} problem(s)[/red]"
        console.print(f"level {level}: {mark}")
        for p in probs[:20]:
            console.print(f"  - {p}", highlight=False)
    console.print(f"{rep.tasks} oracles replayed, {rep.pages_checked} pages checked in "
                  f"{wall:.1f} s")
    if not rep.ok:
        raise typer.Exit(code=1)


def check(site: str = typer.Option("all", "--site", "-s", help="Site name, or 'all'.")) -> None:
    """Run the site conformance checker (no browser)."""
    from webmdp.core.check import check_site
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
            bad += not rep.ok
    if bad:
        raise fail(f"{bad} site(s) failed conformance")
