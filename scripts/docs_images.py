"""Make the documentation's pictures (docs/img/) from real runs.

    make docs-images
    python scripts/docs_images.py [--out DIR] [--only site,viewer,report] [--work DIR]

(``--out`` defaults to docs/img; run it from the repository root, in the project's environment:
``.venv/bin/python scripts/docs_images.py``. It takes about a minute on two cores.)

Three groups, each from fixed task ids and seeds, so a rerun shows the same pages, steps and
numbers (only timings, ports and session ids on screen may differ):

``site``
    ``site-SITE.png`` for each of the ten built-in sites: the oracle of the site's first task
    (shopping: ``shopping_0031``; then the first task of each template, until one gets there)
    runs in Chromium at 1440x900, and the page is shot the first time it shows the site's
    representative surface (``SURFACES``: a list or results page, a thread, a repository).
``viewer``
    ``viewer.png``: ``webmdp run --mode browser --screenshots`` with the oracle, greedy and
    random agents on one shopping task, then the artifact viewer (``webmdp view``) over that
    run, shot on the oracle's replay at its first step that opens a product.
``report``
    ``webmdp run --mode semantic`` with oracle, greedy and random on 60 tasks of every site,
    then ``webmdp report``; three of its figures are copied: ``skills_mail.png`` (skill
    invocation on Mail), ``exploration_complexity.png`` (exploration success by task
    complexity) and ``bifurcation_kinds.png`` (where failing episodes leave the oracle's path).

Every PNG is written optimised, and palette-quantised when that is what keeps it under
``MAX_BYTES`` (300 KB); the script prints each file's name and size and exits non-zero if one is
still larger. The runs go to a temporary directory unless ``--work`` names one to keep.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image

from webmdp.agents import OracleAgent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import VIEWPORT, BrowserHost
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks
from webmdp.viewer import RunIndex, ViewerServer, create_app

MAX_BYTES = 300 * 1024
GROUPS = ("site", "viewer", "report")

# The surface each site's picture shows (the first time an oracle reaches it), and the task
# whose oracle is tried first (None: the site's first task).
SURFACES: dict[str, tuple[str, str | None]] = {
    "accommodation": ("SearchResults", None),
    "calendar": ("WeekView", None),
    "chat": ("ThreadView", None),
    "food": ("RestaurantList", None),
    "housing": ("SearchResults", None),
    "jobs": ("JobList", None),
    "mail": ("ThreadList", None),
    "qa": ("QuestionList", None),
    "repo": ("RepoDetail", None),
    "shopping": ("SearchResults", "shopping_0031"),  # a department's results, not one hit
}

VIEWER_RUN = "runs/docs"  # relative: the viewer's header shows the run as given
REPORT_RUN = "runs/report"
VIEWER_TASK = "shopping_0031"
VIEWER_AGENTS = ("oracle", "greedy", "random")
REPORT_AGENTS = ("oracle", "greedy", "random")
REPORT_LIMIT = 600  # spread over the ten sites: 60 tasks each
# report figure -> name under docs/img
REPORT_FIGURES: dict[str, str] = {
    "skills_mail.png": "skills_mail.png",
    "complexity.png": "exploration_complexity.png",
    "bifurcation.png": "bifurcation_kinds.png",
}


class Reached(Exception):
    """Raised from the step hook once the wanted page is shot: ends the oracle's episode."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("docs/img"), help="where the PNGs go")
    ap.add_argument(
        "--only",
        default=",".join(GROUPS),
        help="comma-separated groups to make: site, viewer, report (default: all)",
    )
    ap.add_argument("--work", type=Path, help="keep the runs here (default: a temporary dir)")
    args = ap.parse_args()
    groups = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = sorted(set(groups) - set(GROUPS))
    if unknown or not groups:
        ap.error(f"--only takes {', '.join(GROUPS)}; got {args.only!r}")
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    written: list[Path] = []
    with _workdir(args.work) as work:
        if "site" in groups:
            written += site_pictures(out)
        if "viewer" in groups:
            written.append(viewer_picture(out, work))
        if "report" in groups:
            written += report_figures(out, work)
    too_big = _summary(written)
    print(f"{len(written)} images in {time.monotonic() - started:.0f} s -> {out}")
    if too_big:
        sys.exit(f"over {MAX_BYTES // 1024} KB: {', '.join(p.name for p in too_big)}")


# --- site pictures ------------------------------------------------------------------------


def site_pictures(out: Path) -> list[Path]:
    """One picture per built-in site, each the first page an oracle reaches on its surface."""
    written = []
    with ServerHandle() as server, BrowserHost() as host:
        for name, (surface, first) in SURFACES.items():
            png, where = _shoot_surface(name, surface, first, server, host)
            path = out / f"site-{name}.png"
            save_png(png, path)
            print(f"site-{name}.png: {surface}, {where}")
            written.append(path)
    return written


def _shoot_surface(
    name: str, surface: str, first: str | None, server: ServerHandle, host: BrowserHost
) -> tuple[bytes, str]:
    """The screenshot of ``surface`` on site ``name`` and where it came from: the oracles of
    task ``first`` (default: the site's first task), then of each template's first task, until
    one reaches it."""
    site = get_site(name)
    tasks = generate_site_tasks(site)
    picked = [next(t for t in tasks if t.id == first) if first else tasks[0]]
    for template in site.templates:
        first = next((t for t in tasks if t.template == template), None)
        if first is not None and first not in picked:
            picked.append(first)
    for task in picked:
        env = BrowserEnv(
            task,
            agent="docs-images",
            server=server,
            host=host,
            config=BrowserConfig(observation="axtree"),
        )
        shot: list[tuple[bytes, str]] = []
        _hook(env, surface, task.id, shot)
        try:
            with contextlib.suppress(Reached):
                run_episode(env, OracleAgent())
        finally:
            env.close()
        if shot:
            return shot[0]
    raise SystemExit(f"{name}: no oracle of {len(picked)} tasks reached {surface}")


def _hook(env: BrowserEnv, surface: str, task_id: str, shot: list[tuple[bytes, str]]) -> None:
    """Wrap ``env.reset`` and ``env.step`` so that the page is shot the first time it shows
    ``surface``; the step after that raises :class:`Reached` to stop the episode."""
    reset, step = env.reset, env.step
    steps = [0]

    def capture(where: str) -> None:
        page = env.page
        if shot or page.evaluate("document.body.dataset.surface") != surface:
            return
        with contextlib.suppress(Exception):  # a page that keeps polling is shot as it is
            page.wait_for_load_state("networkidle", timeout=5000)
        page.evaluate("document.fonts.ready")
        shot.append((page.screenshot(animations="disabled", caret="hide"), f"{task_id} {where}"))

    def on_reset(*a: Any, **kw: Any) -> Any:
        result = reset(*a, **kw)
        capture("at reset")
        return result

    def on_step(action: Any, *a: Any, **kw: Any) -> Any:
        if shot:
            raise Reached
        result = step(action, *a, **kw)
        steps[0] += 1
        capture(f"after step {steps[0]} ({getattr(action, 'kind', action)})")
        return result

    env.reset = on_reset  # type: ignore[method-assign]
    env.step = on_step  # type: ignore[method-assign]


# --- the viewer ---------------------------------------------------------------------------


def viewer_picture(out: Path, work: Path) -> Path:
    """The viewer's replay of the oracle's browser episode on ``VIEWER_TASK``, at the first
    step that opens a product (its click drawn on the screenshot)."""
    agents = [a for agent in VIEWER_AGENTS for a in ("--agent", agent)]
    webmdp(
        "run", "--mode", "browser", "--screenshots", "--task", VIEWER_TASK, *agents,
        "--workers", "0", "--out", VIEWER_RUN, cwd=work,
    )  # fmt: skip
    trace_path = work / VIEWER_RUN / "episodes/oracle/browser" / f"{VIEWER_TASK}.json"
    trace = json.loads(trace_path.read_text())
    step = next(
        (
            s["index"]
            for s in trace["steps"]
            if any(t.get("category") == "inspect" for t in s.get("transitions") or [])
        ),
        0,
    )
    path = out / "viewer.png"
    with contextlib.chdir(work):  # the header names the run as given: runs/docs
        index = RunIndex.load([VIEWER_RUN])
        with ViewerServer(create_app(index)) as viewer, BrowserHost() as host:
            context = host.browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
            try:
                page = context.new_page()
                url = (
                    f"{viewer.url}episode?agent=oracle&mode=browser&task={VIEWER_TASK}"
                    f"&view=replay&step={step}"
                )
                response = page.goto(url, wait_until="networkidle")
                if response is None or response.status != 200:
                    raise SystemExit(f"viewer answered {response and response.status} for {url}")
                page.evaluate("document.fonts.ready")
                png = page.screenshot(animations="disabled", caret="hide")
            finally:
                context.close()
    save_png(png, path)
    print(f"viewer.png: oracle on {VIEWER_TASK}, step index {step}")
    return path


# --- report figures -----------------------------------------------------------------------


def report_figures(out: Path, work: Path) -> list[Path]:
    """Run oracle, greedy and random on 60 tasks of every site (semantic mode), write the
    report and copy ``REPORT_FIGURES`` from it."""
    run = work / REPORT_RUN
    agents = [a for agent in REPORT_AGENTS for a in ("--agent", agent)]
    webmdp(
        "run", "--site", "all", "--mode", "semantic", "--limit", str(REPORT_LIMIT), *agents,
        "--workers", "0", "--out", str(run),
    )  # fmt: skip
    webmdp("report", str(run), "--out", str(run / "report"))
    written = []
    for source, name in REPORT_FIGURES.items():
        path = out / name
        save_png((run / "report/figures" / source).read_bytes(), path)
        written.append(path)
    return written


# --- helpers ------------------------------------------------------------------------------


def webmdp(*args: str, cwd: Path | None = None) -> None:
    """Run the ``webmdp`` CLI of this interpreter's environment; fail on a non-zero exit."""
    exe = Path(sys.executable).with_name("webmdp")
    cmd = [str(exe) if exe.is_file() else shutil.which("webmdp") or "webmdp", *args]
    print("$ webmdp " + " ".join(args), flush=True)
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"webmdp {args[0]} failed with exit status {done.returncode}")


def save_png(png: bytes, path: Path) -> None:
    """Write ``png`` optimised; if that is over ``MAX_BYTES``, palette-quantise it (256 colours)
    first. Metadata (dates, software) is dropped, so equal pixels give equal files."""
    image = Image.open(io.BytesIO(png))
    image.load()
    if image.mode not in ("RGB", "RGBA", "P", "L"):
        image = image.convert("RGBA")
    data = _encode(image)
    if len(data) > MAX_BYTES:
        rgb = image.convert("RGB")
        data = _encode(rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=0))
    path.write_bytes(data)


def _encode(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _summary(paths: list[Path]) -> list[Path]:
    """Print each file's name and size; return those over ``MAX_BYTES``."""
    too_big = []
    for path in paths:
        size = path.stat().st_size
        flag = "" if size <= MAX_BYTES else "  TOO BIG"
        print(f"{path.name:<32} {size / 1024:7.1f} KB{flag}")
        if size > MAX_BYTES:
            too_big.append(path)
    return too_big


@contextlib.contextmanager
def _workdir(keep: Path | None) -> Iterator[Path]:
    """``keep`` (its ``runs/docs`` and ``runs/report`` from an earlier call removed: a run
    directory would be resumed, not redone) or a temporary directory."""
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="webmdp-docs-images-") as tmp:
            yield Path(tmp)
        return
    keep = keep.resolve()
    for old in (VIEWER_RUN, REPORT_RUN):
        shutil.rmtree(keep / old, ignore_errors=True)
    keep.mkdir(parents=True, exist_ok=True)
    yield keep


if __name__ == "__main__":
    main()
