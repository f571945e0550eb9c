"""The viewer's web app: the task list, the episode page (replay, trajectory vs reference,
verification), batch comparison, and the screenshots they show.

Every page is rendered on the server by Jinja with autoescaping on; nothing a trace holds is
ever marked safe or written into a script, and the Content-Security-Policy admits only the
viewer's own script and style files, so a payload that slipped through could still not run.
Every view's state is in its query string. Every text response (pages, the batch report) passes
through the scrubber of :mod:`webmdp.redact`, as every file a run writes does: a trace recorded
before a secret was known, or imported from elsewhere, is still served without it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from webmdp.eval.aggregate import LENGTH_BUCKETS
from webmdp.eval.report import DASH, pct
from webmdp.eval.runs import run_state
from webmdp.redact import scrub
from webmdp.viewer.batch import SCOPES, Batch
from webmdp.viewer.episode import episode_page
from webmdp.viewer.index import EpisodeRef, RunIndex
from webmdp.viewer.query import OUTCOMES, PAGE_SIZES, TaskQuery, select
from webmdp.viewer.replay import INITIAL

HERE = Path(__file__).parent
VIEWS = ("replay", "trajectory", "verification")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
REPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" '
           b'height="32" rx="6" fill="#1d2330"/><path d="M7 22l6-12 6 8 6-10" fill="none" '
           b'stroke="#8fb4ff" stroke-width="3" stroke-linecap="round"/></svg>')
MARK = {"success": "\u2713", "failure": "\u2717", "error": "!"}


def episode_url(ep: EpisodeRef, **extra: Any) -> str:
    """The episode page's URL; ``extra`` (view, step, ref, shot) is its state."""
    pairs = {"agent": ep.agent, "mode": ep.mode, "task": ep.task_id}
    pairs |= {k: v for k, v in extra.items() if v not in (None, "")}
    return "/episode?" + urlencode(pairs)


def _value(v: Any) -> str:
    """A compared value as JSON text (escaped by the template like everything else)."""
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def breakable(text: str) -> Markup:
    """``text`` escaped, with line-break opportunities after ``_`` and ``-`` (agent names)."""
    return Markup(str(escape(text)).replace("_", "_<wbr>").replace("-", "-<wbr>"))


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = pct
    env.filters["value"] = _value
    env.filters["breakable"] = breakable
    env.filters["seconds"] = lambda s: f"{s:.2f} s" if s else DASH
    env.globals.update(episode_url=episode_url, mark=MARK, dash=DASH)
    return env


def create_app(index: RunIndex, *, page_size: int = 50) -> FastAPI:
    """The viewer over ``index``; ``page_size`` is the task list's default page."""
    app = FastAPI(title="webmdp viewer", docs_url=None, redoc_url=None, openapi_url=None)
    env = environment()
    env.globals["disagreement_url"] = lambda d: disagreement_url(index, d)
    batch = Batch(index)
    app.state.index, app.state.batch = index, batch
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    runs = [str(r) for r in index.runs]

    @app.middleware("http")
    async def security(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        if request.method != "HEAD":
            response = await scrubbed(response)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    def page(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        html = env.get_template(name).render(runs=runs, **ctx)
        return HTMLResponse(html, status_code=status)

    def error_page(what: str, status: int = 404) -> HTMLResponse:
        return page("error.html", status, title="Not found" if status == 404 else "Error",
                    message=what)

    @app.get("/", response_class=HTMLResponse)
    def tasks(request: Request) -> HTMLResponse:
        params = request.query_params
        q = TaskQuery.parse(params, params.getlist, page_size)
        chosen = batch.bifurcated(q.bif) if q.bif else None
        result = select(index, q, chosen)
        return page("tasks.html", q=q, result=result, index=index, outcomes=OUTCOMES,
                    page_sizes=sorted({*PAGE_SIZES, q.per, page_size}), olens=LENGTH_BUCKETS,
                    default_per=page_size, run_states=[run_state(r) for r in index.runs])

    @app.get("/episode", response_class=HTMLResponse)
    def episode(agent: str = "", mode: str = "", task: str = "", view: str = "replay",
                step: int = 0, ref: str = "", shot: str = "") -> HTMLResponse:
        ep = index.episode(agent, mode, task)
        if ep is None:
            return error_page(f"No episode of agent {agent!r} ({mode or 'any mode'}) on "
                              f"task {task!r} in the loaded runs.")
        try:
            got = episode_page(index, ep, ref)
        except (OSError, ValueError) as exc:
            return error_page(f"The trace {ep.trace} cannot be read: {exc}", 500)
        return page("episode.html", **vars(got), view=view if view in VIEWS else "replay",
                    step=max(0, min(step, len(got.steps) - 1)),
                    shot=shot if shot in ("before", "after") else "")

    @app.get("/shot")
    def screenshot(agent: str = "", mode: str = "", task: str = "", step: int | None = None
                   ) -> Response:
        ep = index.episode(agent, mode, task)
        if ep is None:
            return error_page("no such episode")
        try:
            trace = index.trace(ep)
        except (OSError, ValueError):
            return error_page("unreadable trace")
        if step == INITIAL:
            rel = trace.initial_screenshot
        else:
            rel = trace.steps[step].screenshot if step is not None and 0 <= step < len(
                trace.steps) else None
        if not rel:
            return error_page("no screenshot for this step")
        path = index.screenshot(ep, rel)
        if path is None:
            return error_page("no screenshot for this step")  # not inside the run: refused
        return FileResponse(path, media_type="image/png",
                            headers={"Cache-Control": "private, max-age=3600"})

    @app.get("/batch", response_class=HTMLResponse)
    def batch_page(scope: str = "common") -> HTMLResponse:
        data = batch.get(scope)
        return page("batch.html", data=data, index=index, scopes=SCOPES,
                    figures=sorted(data.images), disagreements=data.analysis.disagreements)

    @app.get("/batch/report.html", response_class=HTMLResponse)
    def report_html(scope: str = "common") -> HTMLResponse:
        data = batch.get(scope)
        if not data.report_html:
            return error_page("No episode to report in this scope.")
        return HTMLResponse(data.report_html, headers={"Content-Security-Policy": REPORT_CSP})

    @app.get("/batch/{folder}/{name}")
    def figure(folder: str, name: str, scope: str = "common") -> Response:
        data = batch.get(scope).images.get(f"{folder}/{name}")
        if data is None:
            return error_page("no such figure")
        return Response(data, media_type="image/png")

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml")

    @app.exception_handler(404)
    async def not_found(request: Request, exc: Exception) -> HTMLResponse:
        return error_page(f"Nothing at {request.url.path}.")

    return app


SCRUBBED_TYPES = ("text/", "application/json")
"""Content types whose body the viewer scrubs (screenshots and figures are images)."""


async def scrubbed(response: Response) -> Response:
    """``response`` with its body scrubbed when it is text (:func:`webmdp.redact.scrub`)."""
    if not response.headers.get("content-type", "").startswith(SCRUBBED_TYPES):
        return response
    body = b"".join([chunk if isinstance(chunk, bytes) else chunk.encode()
                     async for chunk in response.body_iterator])  # type: ignore[attr-defined]
    text = body.decode("utf-8", errors="replace")
    clean = scrub(text)
    out = Response(body if clean == text else clean.encode(), status_code=response.status_code)
    out.raw_headers = [(k, v) for k, v in response.raw_headers if k != b"content-length"]
    out.raw_headers.append((b"content-length", str(len(out.body)).encode()))
    return out


def disagreement_url(index: RunIndex, d: dict[str, Any]) -> str | None:
    """The verification view of a disagreement's episode."""
    ep = next((e for e in index.siblings(str(d["task_id"])) if e.agent == d["agent"]), None)
    return episode_url(ep, view="verification") if ep is not None else None

