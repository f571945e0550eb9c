"""Compose window transitions: open a draft (new / reply / reply all / forward), edit, send."""

from __future__ import annotations

import re
from typing import Any

from webmdp.core.model import World
from webmdp.errors import require
from webmdp.sites._common.handlers import Handler, Params, step
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.state import MailState as S
from webmdp.sites.mail.state import SentMail

_EMAIL = re.compile(r"^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$")
_ANGLE = re.compile(r"<([^<>]+)>")
_CLOSED = {"compose": "", "to": (), "cc": (), "subject": "", "body": "", "reply_thread": ""}
MODAL_ACTIONS = frozenset({"AddRecipient", "RemoveRecipient", "AddCc", "RemoveCc",
                           "SetSubject", "SetBody", "Send", "DiscardDraft"})


def email(text: str) -> str:
    """The bare lower-case address of ``email`` or ``Name <email>``; '' when malformed."""
    m = _ANGLE.search(text)
    addr = (m.group(1) if m else text).strip().lower()
    return addr if _EMAIL.match(addr) else ""


def _unique(addrs: list[str], drop: set[str]) -> tuple[str, ...]:
    out: list[str] = []
    for a in addrs:
        if a and a not in drop and a not in out:
            out.append(a)
    return tuple(out)


def _open(s: S, mode: str, **fields: Any) -> S:
    return s.replace(surface="ComposeModal", **{**_CLOSED, "compose": mode, **fields})


def _compose(s: S, p: Params, w: World) -> S:
    require(s.surface in ("ThreadList", "ThreadView"), "Compose: not available here")
    return _open(s, "new")


def _respond(mode: str) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        require(s.surface == "ThreadView" and s.focus is not None, f"{mode}: no thread is open")
        t = w.entities[s.focus or ""]
        if mode == "forward":
            return _open(s, mode, subject=f"Fwd: {t['subject']}", reply_thread=s.focus)
        me = {C.USER_EMAIL}
        to = _unique([email(t["reply_to"])], me)
        cc: tuple[str, ...] = ()
        if mode == "reply_all":
            to = _unique([*to, *(email(a) for a in t["to"])], me)
            cc = _unique([email(a) for a in t["cc"]], me | set(to))
        return _open(s, mode, to=to, cc=cc, subject=f"Re: {t['subject']}", reply_thread=s.focus)
    return go


def _add(field: str) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        addr = email(str(p["address"]))
        require(bool(addr), f"not a valid email address: {p['address']!r}")
        have: tuple[str, ...] = getattr(s, field)
        require(addr not in have, f"{addr} is already listed")
        return s.replace(**{field: (*have, addr)})
    return go


def _remove(field: str) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        addr = email(str(p["address"]))
        have: tuple[str, ...] = getattr(s, field)
        require(addr in have, f"{p['address']!r} is not listed")
        return s.replace(**{field: tuple(a for a in have if a != addr)})
    return go


def _set(field: str) -> Handler[S]:
    return step(None, "", **{field: lambda s, p: str(p[field]).strip()})


def behind(s: S, p: Params | None = None) -> str:
    """The surface under the compose window: the thread it was opened from, else the list."""
    return "ThreadView" if s.focus else "ThreadList"


def _send(s: S, p: Params, w: World) -> S:
    require(bool(s.to), "Send: add at least one recipient")
    mail = SentMail(s.compose, s.to, s.cc, s.subject, s.body, s.reply_thread)
    return s.replace(surface=behind(s), **_CLOSED, sent=(*s.sent, mail), notice="Message sent.")


def _in_modal(h: Handler[S]) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        require(s.surface == "ComposeModal", "no draft is open")
        return h(s, p, w)
    return go


COMPOSE_HANDLERS: dict[str, Handler[S]] = {
    "Compose": _compose, "Reply": _respond("reply"), "ReplyAll": _respond("reply_all"),
    "Forward": _respond("forward"),
    **{k: _in_modal(h) for k, h in {
        "AddRecipient": _add("to"), "RemoveRecipient": _remove("to"), "AddCc": _add("cc"),
        "RemoveCc": _remove("cc"), "SetSubject": _set("subject"), "SetBody": _set("body"),
        "Send": _send,
        "DiscardDraft": step(None, "", surface=behind, **_CLOSED, notice="Draft discarded.")
    }.items()},
}
