"""`webmdp rl`: serve webmdp to reinforcement-learning trainers (OpenEnv), write their
datasets, and show the splits both draw from."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated, Any

import typer

from webmdp.cli.common import fail, in_range, read_task_file, user_errors
from webmdp.cli.ranges import MAX_BROWSER_SESSIONS, MAX_SESSIONS
from webmdp.redact import register as register_secret

app = typer.Typer(help="Reinforcement-learning integrations (OpenEnv server, TRL dataset, "
                       "the train / test splits).", no_args_is_help=True)

SPLIT_HELP = ("train or test (under --holdout), or a whole source: cross-site (with --site "
              "all) or file (with --tasks).")
LEVEL_HELP = "Narrow the split to a measured level: 1, 2, 3 or none (default: every level)."
HOLDOUT_HELP = ("What test holds out: task (a keyed hash of task ids, 20%), template (20% of "
                "each site's templates, every task of theirs) or site:NAME (leave one site "
                "out).")
TASKS_HELP = ("A task file: split 'file', and its ids resolve first (an id of a built-in "
              "task with other content is refused).")


Site = Annotated[str, typer.Option("--site", help="A site, 'all', or 'cross-site' (the same "
                                   "as --suite cross-site).")]
SUITE_HELP = ("builtin (the sites' tasks and the dial's level-1 tasks), cross-site (the same as "
              "--site cross-site) or grid (40 tasks per site and WebForge level 1-3, "
              "`webmdp tasks stats --suite grid`).")
Suite = Annotated[str, typer.Option("--suite", help=SUITE_HELP)]
Mode = Annotated[str, typer.Option(
    "--mode", help="semantic (typed actions, text) or browser (GUI actions in Chromium, "
    "screenshot + accessibility tree; a Chromium per session).")]
Reward = Annotated[str, typer.Option(
    "--reward", help="terminal (1/0 verdict; for rollout-scored trainers such as GRPO), dense "
    "(exact potential-based shaping that counts the task's information constraints; for "
    "per-step credit such as PPO), dense-state (shaping by the goal distance alone) or rubric "
    "(cross-site rubric root; the shaped modes refuse cross-site tasks). Whatever the reward, "
    "the last observation carries metadata.success, and metadata.shaping the shaping part.")]
MaxSessions = Annotated[int, typer.Option(
    "--max-sessions", help="Concurrent WebSocket sessions (>= the trainer's generation "
    "batch); in browser mode also the most Chromiums at once.")]
StepBudget = Annotated[int, typer.Option(
    "--step-budget", help="Steps per episode and site; invalid actions count against it.")]
StepTimeout = Annotated[float, typer.Option(
    "--step-timeout", help="Browser mode: seconds one step may take; past it the episode "
    "ends with an error and the session's browser is recycled.")]
Holdout = Annotated[str, typer.Option("--holdout", help=HOLDOUT_HELP)]
Tasks = Annotated[Path | None, typer.Option("--tasks", help=TASKS_HELP)]
Host = Annotated[str, typer.Option(
    "--host", help="Interface to bind: loopback by default, where only loopback Host names "
    "and this server's own origin are answered. Another (a trainer on another machine) needs "
    "--token, and is warned about: plain HTTP, no TLS.")]
Port = Annotated[int, typer.Option("--port", help="TCP port.")]
Token = Annotated[str | None, typer.Option(
    "--token", envvar="WEBMDP_RL_TOKEN", show_envvar=True,
    help="Bearer token every request (the WebSocket upgrade included) must carry as "
    "'Authorization: Bearer TOKEN', or 401; required off loopback. Prefer the environment "
    "variable: a command line is visible to other users.")]
AllowOrigin = Annotated[list[str], typer.Option(
    "--allow-origin", metavar="URL", help="Also accept WebSocket upgrades and POSTs from "
    "pages of this origin (scheme://host:port); repeatable. Any other Origin is refused "
    "(403).")]
AllowHost = Annotated[list[str], typer.Option(
    "--allow-host", metavar="NAME", help="Also answer this Host name (repeatable); off "
    "loopback, answer only these, loopback's and the bound address (default: any).")]
Workers = Annotated[int, typer.Option(
    "--workers", help="Worker processes behind the one port (uvicorn's workers: a dead one "
    "is replaced); each takes ceil(max-sessions / workers) sessions, and a session lives in "
    "the worker whose process accepted it. At most 4 per CPU. With --backend ray: replicas.")]
Backend = Annotated[str, typer.Option(
    "--backend", help="local (this machine's processes) or ray (a Ray Serve deployment of "
    "--workers replicas behind Ray's proxy; needs ray[serve]).")]
RayAddress = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDR", help="With --backend ray: the cluster to join (e.g. "
    "ray://head:10001 or auto); default: start a local one.")]
Quiet = Annotated[bool, typer.Option(
    "--quiet", help="Only the ready line: no progress while starting, no line per episode, "
    "no minutely statistics.")]


@app.command("serve")
def serve(site: Site = "all", mode: Mode = "semantic", reward: Reward = "terminal",
          max_sessions: MaxSessions = 16, step_budget: StepBudget = 50,
          step_timeout: StepTimeout = 30.0, holdout: Holdout = "task", tasks: Tasks = None,
          host: Host = "127.0.0.1", port: Port = 8000, token: Token = None,
          allow_origin: AllowOrigin = [],  # noqa: B006 (Typer's default, never mutated)
          allow_host: AllowHost = [],  # noqa: B006
          quiet: Quiet = False, workers: Workers = 1, backend: Backend = "local",
          ray_address: RayAddress = None, suite: Suite = "builtin") -> None:
    """Serve an OpenEnv environment (HTTP + WebSocket, OpenEnv's own server) over webmdp's
    sites, in semantic or browser mode: train / test splits under a holdout, levels,
    deterministic resets, terminal / dense / rubric rewards with the exact verdict beside
    them. GET /webmdp/actions and /schema describe every action as JSON Schema. --workers
    serves from several processes behind the one port, --backend ray from a Ray Serve
    deployment; the app itself is webmdp.rl.app:create_app (uvicorn --factory), configured
    by WEBMDP_RL_* environment variables."""
    in_range("--max-sessions", max_sessions, 1,
             MAX_BROWSER_SESSIONS if mode == "browser" else MAX_SESSIONS)
    in_range("--step-budget", step_budget, 1)
    in_range("--port", port, 0, 65535)
    _check_scale(workers, backend, port)
    token = token or None  # an empty WEBMDP_RL_TOKEN is no token
    access = _access(host, token, allow_origin, allow_host)
    say = (lambda line: None) if quiet else (lambda line: typer.echo(line, err=True))
    start = time.monotonic()
    ServeLog, app_for, run = _openenv(say)
    if tasks is not None:
        with user_errors():
            read_task_file(tasks)
    from webmdp.rl.settings import ServeSettings
    from webmdp.tasks.sources import pools_cached

    with user_errors():
        settings = ServeSettings(
            site=site, mode=mode, reward=reward, max_sessions=max_sessions,
            step_budget=step_budget, step_timeout=step_timeout, holdout=holdout, suite=suite,
            tasks=None if tasks is None else str(tasks.resolve()), host=host, port=port,
            token=token, allow_origin=tuple(allow_origin), allow_host=tuple(allow_host),
            quiet=quiet)
    warm = pools_cached(site) if site in _scopes() and suite == "builtin" else False
    say(f"reading the task pools from the disk cache (site={site}, holdout={holdout})..."
        if warm else f"the task pools of site={site} are not in the disk cache: each is built "
        "on its first use (`webmdp cache build` builds them ahead)")
    log = ServeLog(quiet)
    try:  # the options are checked here, in this process, before any worker starts
        app_ = app_for(settings, log=log, access=access,
                       warm="background" if warm and workers == 1 and backend == "local"
                       else False)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not access.loopback:
        typer.echo(f"warning: binding {host}, not loopback: the server speaks plain HTTP, "
                   "with no TLS, so the token and every episode cross the network in clear; "
                   "keep it on a network you trust or behind a tunnel", err=True)

    def ready(bound: int) -> None:
        scale = "" if workers == 1 else (f", workers={workers}" if backend == "local" else
                                         f", ray replicas={workers}")
        typer.echo(f"ready: webmdp OpenEnv server on http://{host}:{bound} (site={site}, "
                   f"mode={mode}, reward={reward}, holdout={holdout}, max sessions="
                   f"{max_sessions}{scale}; started in {time.monotonic() - start:.1f} s)",
                   err=True)

    if backend == "local" and workers == 1:
        def ready_one(bound: int) -> None:
            ready(bound)
            log.every()

        run(app_, host=host, port=port, on_ready=ready_one)
        return
    del app_
    _serve_scaled(settings, workers, backend, ray_address, ready, say)


def _check_scale(workers: int, backend: str, port: int) -> None:
    """--workers, --backend and what they need, each refused in one line."""
    in_range("--workers", workers, 1)
    if backend not in ("local", "ray"):
        raise fail(f"--backend must be local or ray, got {backend!r}")
    if backend == "local":
        from webmdp.runner.limits import check_workers

        with user_errors():
            check_workers(workers)
        return
    if port == 0:
        raise fail("--backend ray needs a fixed --port (Ray's proxy binds it)")
    try:
        import ray.serve  # noqa: F401
    except ImportError as exc:
        raise fail(f"--backend ray needs Ray Serve: pip install 'webmdp[ray]' ({exc})") \
            from None


def _serve_scaled(settings: Any, workers: int, backend: str, ray_address: str | None,
                  ready: Callable[[int], None], say: Callable[[str], None]) -> None:
    """Serve from ``workers`` uvicorn workers, or Ray Serve replicas."""
    if backend == "ray":
        from webmdp.rl.scale import serve_ray

        serve_ray(settings, workers, ray_address, ready)
        return
    from webmdp.rl.scale import serve_workers
    from webmdp.rl.server import STATS_EVERY_S

    serve_workers(settings, workers, ready, say, STATS_EVERY_S)


def _scopes() -> list[str]:
    from webmdp.rl.splits import site_choices

    return site_choices()


def _access(host: str, token: str | None, allow_origin: list[str],
            allow_host: list[str]) -> Any:
    """Who the server answers (:mod:`webmdp.server.origin`); off loopback a token is
    required."""
    from webmdp.server.origin import Access, is_loopback

    if token is None and not is_loopback(host):
        raise fail(f"--host {host} is not loopback: give a token (--token or "
                   "WEBMDP_RL_TOKEN) that every client sends as 'Authorization: Bearer TOKEN'")
    register_secret(token)
    with user_errors():
        return Access(bind=host, token=token, allow_origins=tuple(allow_origin),
                      allow_hosts=tuple(allow_host))


def _openenv(say: Callable[[str], None]) -> tuple[Any, Any, Any]:
    """OpenEnv's server pieces (ServeLog, app_for, serve), or a one-line refusal."""
    if find_spec("openenv") is None:  # before the progress line: the refusal is one line
        raise fail("webmdp rl needs OpenEnv: pip install 'webmdp[openenv]'")
    say("loading OpenEnv and its server (FastAPI, gradio)...")
    try:
        from webmdp.rl.server import ServeLog, app_for
        from webmdp.rl.server import serve as run
    except ImportError as exc:
        raise fail(f"webmdp rl needs OpenEnv: pip install 'webmdp[openenv]' ({exc})") from None
    return ServeLog, app_for, run


@app.command("dataset")
def dataset(
    out: Path = typer.Option(..., "--out", help="F.jsonl or F.parquet (what "
                             "datasets.load_dataset reads)."),
    site: str = typer.Option("all", "--site", help="A site, 'all' (adds an 'environment' "
                             "column), or 'cross-site'."),
    split: str | None = typer.Option(None, "--split", help=SPLIT_HELP + " Default: file "
                                     "with --tasks, else train."),
    level: str | None = typer.Option(None, "--level", help=LEVEL_HELP),
    holdout: str = typer.Option("task", "--holdout", help=HOLDOUT_HELP),
    tasks: Path | None = typer.Option(None, "--tasks", help=TASKS_HELP),
    limit: int | None = typer.Option(None, "--limit", help="At most N rows."),
    suite: str = typer.Option("builtin", "--suite", help=SUITE_HELP),
) -> None:
    """Write a TRL dataset: one row per task of the split, with a conversational 'prompt'
    (the instruction), 'task_id' (what the environment's reset reads), 'site', 'template',
    'level' (1-3 or null), 'split', 'holdout' and 'split_version'."""
    from webmdp.rl.dataset import rows, write

    if out.suffix not in (".jsonl", ".parquet"):
        raise fail(f"--out {out}: use a .jsonl or .parquet file")
    if tasks is not None:
        with user_errors():
            read_task_file(tasks)
    try:
        data = rows(site, split, limit, level=level, holdout=holdout, tasks=tasks, suite=suite)
    except ValueError as exc:
        raise fail(str(exc)) from None
    write(out, data)
    narrowed = "" if level is None else f", level {level}"
    from webmdp.rl.splits import default_split

    chosen = default_split(split, tasks)
    within = "" if suite == "builtin" else f", suite {suite}"
    typer.echo(f"wrote {len(data)} rows ({site}, {chosen}{narrowed}, holdout {holdout}"
               f"{within}) to {out}")


@app.command("splits")
def splits(
    site: str = typer.Option("all", "--site", help="A site, 'all', or 'cross-site'."),
    holdout: str = typer.Option("task", "--holdout", help=HOLDOUT_HELP),
    as_json: bool = typer.Option(False, "--json", help="The table as JSON."),
    suite: str = typer.Option("builtin", "--suite", help=SUITE_HELP),
) -> None:
    """Print the train / test split under a holdout: task counts by split, level and site,
    the held-out templates or site, and the split_version every dataset row names."""
    import json

    from rich.table import Table

    from webmdp.cli.common import console
    from webmdp.rl.splits import SPLIT_VERSION, Catalog, counts

    try:
        catalog = Catalog(site, None, holdout, suite)  # type: ignore[arg-type]
        rows = counts(catalog)
        held = catalog.held_out()
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps({"site": site, "suite": catalog.suite,
                               "holdout": str(catalog.holdout),
                               "split_version": SPLIT_VERSION, "held_out_templates": held,
                               "counts": rows}, indent=1))
        return
    levels = ["1", "2", "3", "none"]
    table = Table(title=f"webmdp rl splits: site={site}, suite={catalog.suite}, "
                        f"holdout={catalog.holdout}, split_version={SPLIT_VERSION}")
    for col in ("split", "site", *(f"level {lv}" for lv in levels), "total"):
        table.add_column(col, justify="left" if col in ("split", "site") else "right")
    for split in ("train", "test"):
        sites = sorted({r["site"] for r in rows if r["split"] == split})
        for s in [*sites, "all"]:
            cells = [sum(r["tasks"] for r in rows if r["split"] == split
                         and r["level"] == lv and s in (r["site"], "all")) for lv in levels]
            table.add_row(split, s, *map(str, cells), str(sum(cells)),
                          style="bold" if s == "all" else None)
    console.print(table)
    if catalog.holdout.kind == "site":
        console.print(f"held out: every task of site {catalog.holdout.site} (and every "
                      "cross-site task that touches it)")
    for s, names in held.items():
        console.print(f"held-out templates of {s}: {', '.join(names)}")
