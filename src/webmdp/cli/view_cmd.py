"""`webmdp view RUN [RUN ...]`: browse, replay and compare the episodes of runs in a browser."""

from __future__ import annotations

import time
import webbrowser
from pathlib import Path

import typer

from webmdp.cli.common import console, fail, user_errors


def view(
    run_dirs: list[Path] = typer.Argument(..., metavar="RUN...",
                                          help="Directories written by `webmdp run` or "
                                          "`webmdp import`; several are compared side by side "
                                          "(the same agent, mode and task in two runs: the "
                                          "first run's episode is shown)."),
    host: str = typer.Option("127.0.0.1", help="Loopback address to bind (127.0.0.1, ::1 "
                             "or localhost): the viewer has no authentication, so another "
                             "address is refused; tunnel to it instead (ssh -L). It answers "
                             "only loopback Host names."),
    port: int = typer.Option(8765, help="Port to bind, 0 to 65535; 0 picks a free one."),
    page_size: int = typer.Option(50, "--page-size", help="Tasks per page of the task list "
                                  "(1 to 1000)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the URL in the default "
                                      "browser."),
) -> None:
    """Serve the artifact viewer for RUN directories and print its URL.

    Pages: the task list (each run's state from its manifest, read on every request and never
    written: completed, running, interrupted, failed, or "interrupted (owner gone)" for a run
    marked running whose process is dead; filters: site, template, agent, outcome, hard
    negatives, access level, oracle length, infrastructure errors, agents disagreeing,
    bifurcation kind; one row per task, one mark per agent); an episode's turn-by-turn replay
    (the screenshot the agent saw with its action drawn, thought, raw model output, parsed
    action, tokens, latency, semantic transitions, coverage; keys: left / right or j / k, p
    plays); its trajectory beside the oracle's with the bifurcation point; its verification
    panel (every verifier condition with the values compared; imported bundles: recorded vs
    recomputed); and the batch comparison (the tables and figures of `webmdp report`, each cell
    linked to its episodes). Every view's state is in its URL. Stop with Ctrl-C.
    """
    from webmdp.viewer import RunIndex, ViewerServer, create_app
    from webmdp.viewer.serve import check_loopback

    with user_errors():
        check_loopback(host)
    for run_dir in run_dirs:
        if not run_dir.is_dir():
            raise fail(f"no run directory {run_dir}")
    with user_errors():
        t0 = time.perf_counter()
        index = RunIndex.load(run_dirs)
        took = time.perf_counter() - t0
        server = ViewerServer(create_app(index, page_size=page_size), host=host, port=port)
    console.print(f"indexed {len(index.episodes)} episodes of {len(index.by_task)} tasks "
                  f"({len(index.agents)} agents) in {took:.2f} s", highlight=False)
    if index.skipped:
        console.print(f"skipped {len(index.skipped)} inputs (listed on the task list)",
                      highlight=False)
    typer.echo(f"webmdp viewer: {server.url}")
    if open_browser:
        webbrowser.open(server.url)
    server.serve()
