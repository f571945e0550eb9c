"""One FastAPI app that serves every site (DESIGN.md, GUI-MDP coupling).

Pages: ``GET /s/{sid}/...`` renders the session's current state; ``POST /s/{sid}/dispatch``
applies a semantic action and returns the re-rendered view; ``POST /s/{sid}/back`` applies the
site's Back action. Control API (``/control/...``) needs the per-run token in the
``X-WebMDP-Token`` header; pages never contain it. ``POST /control/sessions/{sid}/snapshots``
and ``.../restore`` let tree-search agents backtrack a session to an earlier semantic state.
"""

from __future__ import annotations

import hmac
from html import escape
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.server.sessions import Session, SessionStore
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tracking import state_key

_COMMON_STATIC = Path(views.__file__).parent / "static"
_NO_STORE = {"Cache-Control": "no-store"}
_APP = '<div id="app">'
"""Where a full page's app HTML starts (``page.html``): the code banner goes first in it."""


class CreateSession(BaseModel):
    site: str
    world: dict[str, Any]
    codes: dict[str, Any] | None = None
    """The task's code secret and conditions (:meth:`Coder.to_json`); kept in the session,
    never sent to a page."""


class RestoreBody(BaseModel):
    snapshot_id: str


class Dispatch(BaseModel):
    action: str
    params: dict[str, Any] = Field(default_factory=dict)


def _static_path(name: str) -> Path | None:
    if "/" in name or name.startswith("."):
        return None
    common = _COMMON_STATIC / name
    if common.is_file():
        return common
    folder = views.site_folder(Path(name).stem, "static")  # a site's own: shopping.css
    return folder / name if folder is not None and (folder / name).is_file() else None


def create_app(token: str) -> FastAPI:
    """The app for one run; ``token`` guards the control API."""
    app = FastAPI(title="webmdp", docs_url=None, redoc_url=None, openapi_url=None)
    store = SessionStore()
    app.state.sessions = store

    def check(tok: str | None) -> None:
        if tok is None or not hmac.compare_digest(tok, token):
            raise HTTPException(status_code=403, detail="missing or wrong control token")

    def session(sid: str) -> Session:
        sess = store.get(sid)
        if sess is None:
            raise HTTPException(status_code=404, detail="no such session")
        return sess

    def view(sess: Session, error: str | None = None) -> dict[str, Any]:
        site = get_site(sess.site_name)
        obs = site.observe(sess.tracker.state, sess.tracker.world)
        return {
            "html": _with_code(views.render_app(sess.site_name, obs, error=error), sess),
            "version": sess.version, "surface": obs.surface, "title": _title(site.title, obs),
            "url": f"/s/{sess.id}/{obs.surface.lower()}", "error": error,
            "stylesheet": views.stylesheet(sess.site_name, obs),
        }

    @app.post("/control/sessions")
    def create_session(body: CreateSession, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        try:
            sess = store.create(body.site, body.world, body.codes)
        except ConfigError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from exc
        return {"session_id": sess.id, "url": f"/s/{sess.id}/",
                "initial_revealed": sess.tracker.initial_revealed,
                "initial_surface": sess.tracker.state.surface}

    @app.get("/control/sessions/{sid}/trace")
    def read_trace(sid: str, since: int = 0, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        sess = session(sid)
        with sess.lock:
            recs = sess.tracker.transitions[since:]
            return {"transitions": [r.model_dump(mode="json") for r in recs],
                    "count": len(sess.tracker.transitions), "version": sess.version}

    @app.get("/control/sessions/{sid}/snapshot")
    def snapshot(sid: str, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        sess = session(sid)
        site = get_site(sess.site_name)
        with sess.lock:
            return {"state": sess.tracker.state.to_dict(),
                    "facts": site.facts(sess.tracker.state), "version": sess.version}

    @app.post("/control/sessions/{sid}/snapshots")
    def take_snapshot(sid: str, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        snap, state = session(sid).snapshot()
        return {"snapshot_id": snap, "state_key": state_key(state), "surface": state.surface}

    @app.post("/control/sessions/{sid}/restore")
    def restore(sid: str, body: RestoreBody, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        sess = session(sid)
        try:
            state, version = sess.restore(body.snapshot_id)
        except ConfigError as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from exc
        return {"state_key": state_key(state), "surface": state.surface,
                "url": f"/s/{sid}/{state.surface.lower()}", "version": version}

    @app.delete("/control/sessions/{sid}")
    def drop(sid: str, x_webmdp_token: str | None = Header(None)) -> dict:
        check(x_webmdp_token)
        store.drop(sid)
        return {"ok": True}

    @app.post("/s/{sid}/dispatch")
    def dispatch(sid: str, body: Dispatch) -> JSONResponse:
        sess = session(sid)
        rec = sess.apply(Action(body.action, body.params))
        return JSONResponse(view(sess, rec.error), headers=_NO_STORE)

    @app.post("/s/{sid}/back")
    def back(sid: str) -> JSONResponse:
        sess = session(sid)
        action = get_site(sess.site_name).browser_back(sess.tracker.state)
        error = sess.apply(action).error if action is not None else None
        return JSONResponse(view(sess, error), headers=_NO_STORE)

    @app.get("/static/{name}")
    def static(name: str) -> FileResponse:
        path = _static_path(name)
        if path is None:
            raise HTTPException(status_code=404)
        return FileResponse(path)

    @app.get("/s/{sid}/{rest:path}", response_class=HTMLResponse)
    def page(sid: str, rest: str) -> HTMLResponse:  # any path under /s/{sid}/ renders the state
        sess = session(sid)
        site = get_site(sess.site_name)
        with sess.lock:
            obs = site.observe(sess.tracker.state, sess.tracker.world)
            html = views.render_page(sess.site_name, obs, title=_title(site.title, obs),
                                     base=f"/s/{sid}", version=sess.version)
            if sess.tracker.code is not None:
                html = html.replace(_APP, _APP + code_banner(sess.tracker.code), 1)
        return HTMLResponse(html, headers=_NO_STORE)

    @app.get("/healthz")
    def healthz() -> dict:
        return {"ok": True, "sessions": len(store)}

    return app


def _title(site_title: str, obs) -> str:
    return f"{site_title} · {obs.surface}"


def _with_code(html: str, sess: Session) -> str:
    """The app HTML with the latest commit's confirmation code above it: visible content, the
    only place a code ever appears."""
    code = sess.tracker.code
    return html if code is None else code_banner(code) + html


def code_banner(code: str) -> str:
    """The confirmation code as every page shows it (first in ``#app``)."""
    return ('<div class="wm-code" role="status" data-testid="confirmation-code">Confirmation '
            f"code: <strong>{escape(code)}</strong></div>")
