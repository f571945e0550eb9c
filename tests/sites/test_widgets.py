"""Widgets of sites/_common/views/widgets.html in a real Chromium: what happens inside them is
page state (no transition), and their end result dispatches exactly one semantic action that
the MDP replays to the same state (the `_Run` harness of test_gestures.py)."""

from __future__ import annotations

from typing import Any

import pytest
from test_gestures import _Run

from support import site_tasks
from webmdp.env.actions import GUIAction, click, key, type_text
from webmdp.tasks import Task

pytestmark = pytest.mark.browser


def _node(nodes: list[dict[str, Any]], name: str, *, start: bool = False) -> dict[str, Any]:
    found = [n for n in nodes if (n.get("name") or "").startswith(name)
             or (not start and n.get("name") == name)]
    assert found, f"no node named {name!r}"
    return found[0]


def _names(nodes: list[dict[str, Any]]) -> set[str]:
    return {n.get("name") or "" for n in nodes}


def _task(site: str, surface_action: str) -> Task:
    """The first task whose oracle path uses ``surface_action``."""
    return next(t for t in site_tasks(site)
                if any(a.name == surface_action for a in t.oracle_actions()))


def _drive_until(run: _Run, task: Task, present: str) -> None:
    """Follow the oracle until a node named ``present`` is on the page."""
    for a in task.oracle_actions():
        if present in _names(run.nodes):
            return
        run.drive(a)
    assert present in _names(run.nodes)


def test_repo_comment_editor_formats_attaches_and_posts(server, host) -> None:  # type: ignore[no-untyped-def]
    task = _task("repo", "AddComment")
    run = _Run(task, server, host)
    try:
        _drive_until(run, task, "Bold")
        body = next(n for n in run.nodes if n.get("field") == "body")
        assert run.gui([click(body["x"], body["y"]), type_text("Seen on ")]) == []
        bold = _node(run.nodes, "Bold")
        assert run.gui([click(bold["x"], bold["y"])]) == []
        assert next(n for n in run.nodes if n.get("field") == "body")["value"] == \
            "Seen on **bold text**"
        choose = _node(run.nodes, "choose your files")
        assert run.gui([click(choose["x"], choose["y"])]) == []
        file, drop = _node(run.nodes, "Attach crash.log"), _node(
            run.nodes, "Attach files by dragging", start=True)
        assert run.gui([GUIAction(kind="drag", x=file["x"], y=file["y"], x2=drop["x"],
                                  y2=drop["y"])]) == []
        text = next(n for n in run.nodes if n.get("field") == "body")["value"]
        assert text == "Seen on **bold text**\n[crash.log](attachments/crash.log)"
        preview = _node(run.nodes, "Preview")
        assert run.gui([click(preview["x"], preview["y"])]) == []
        assert "bold text" in _names(run.nodes)  # rendered as <strong>, not as markup
        assert not any(n.get("field") == "body" for n in run.nodes)
        write = _node(run.nodes, "Write")
        run.gui([click(write["x"], write["y"])])
        submit = next(n for n in run.nodes if n.get("submits") == "AddComment")
        assert run.gui([click(submit["x"], submit["y"])]) == [("AddComment", {"body": text})]
    finally:
        run.close()


def test_repo_label_picker_filters_and_crumbs_go_up(server, host) -> None:  # type: ignore[no-untyped-def]
    task = _task("repo", "OpenIssue")
    run = _Run(task, server, host)
    try:
        _drive_until(run, task, "Edit labels")
        menu = _node(run.nodes, "Edit labels")
        assert run.gui([click(menu["x"], menu["y"])]) == []
        box = _node(run.nodes, "Filter labels")
        assert run.gui([click(box["x"], box["y"]), type_text("doc")]) == []
        shown = [n for n in run.nodes if n.get("action") == "LabelIssue"]
        assert shown and all("doc" in n["name"].lower() for n in shown)
        got = run.gui([click(shown[0]["x"], shown[0]["y"])])
        assert [a for a, _ in got] == ["LabelIssue"]
        crumb = next(n for n in run.nodes if n.get("action") == "BackToIssues"
                     and n.get("name") == "Issues")
        assert run.gui([click(crumb["x"], crumb["y"])]) == [("BackToIssues", {})]
    finally:
        run.close()


def test_jobs_cascader_and_filter_drawer(server, host) -> None:  # type: ignore[no-untyped-def]
    task = _task("jobs", "SetLocation")
    run = _Run(task, server, host)
    try:
        _drive_until(run, task, "All filters")
        trigger = _node(run.nodes, "Location:", start=True)
        assert run.gui([click(trigger["x"], trigger["y"])]) == []
        assert not any(n.get("action") == "SetLocation" and n.get("name") == "Austin"
                       for n in run.nodes)  # the city level is closed
        for level in ("United States", "Texas"):
            opt = _node(run.nodes, level, start=True)
            assert run.gui([click(opt["x"], opt["y"])]) == []
        austin = next(n for n in run.nodes if n.get("name") == "Austin")
        assert run.gui([click(austin["x"], austin["y"])]) == \
            [("SetLocation", {"location": "Austin, TX"})]
        trigger = _node(run.nodes, "Location:", start=True)
        run.gui([click(trigger["x"], trigger["y"])])
        search = _node(run.nodes, "Search location")
        assert run.gui([click(search["x"], search["y"]), type_text("seat")]) == []
        hits = [n for n in run.nodes if n.get("action") == "SetLocation"
                and " / " in (n.get("name") or "")]
        assert [h["name"] for h in hits] == ["United States / Washington / Seattle"]
        assert run.gui([click(hits[0]["x"], hits[0]["y"])]) == \
            [("SetLocation", {"location": "Seattle, WA"})]
        opener = next(n for n in run.nodes if n.get("tag") == "button"
                      and (n.get("name") or "").startswith("All filters"))
        before = sum(1 for n in run.nodes if n.get("action") == "ToggleWorkplace")
        assert run.gui([click(opener["x"], opener["y"])]) == []
        inside = [n for n in run.nodes if n.get("action") == "ToggleWorkplace"]
        assert len(inside) == 2 * before  # the drawer's copies are now shown
        assert run.gui([key("Escape")]) == []
        assert sum(1 for n in run.nodes if n.get("action") == "ToggleWorkplace") == before
        assert run.gui([click(opener["x"], opener["y"])]) == []
        last = [n for n in run.nodes if n.get("action") == "ToggleWorkplace"][-1]
        got = run.gui([click(last["x"], last["y"])])
        assert [a for a, _ in got] == ["ToggleWorkplace"]
    finally:
        run.close()


def test_chat_sidebar_tree_sections_collapse(server, host) -> None:  # type: ignore[no-untyped-def]
    run = _Run(site_tasks("chat")[0], server, host)
    try:
        channels = [n for n in run.nodes if n.get("action") == "OpenChannel"]
        assert channels
        section = _node(run.nodes, "Channels")
        assert run.gui([click(section["x"], section["y"])]) == []
        assert not any(n.get("action") == "OpenChannel" for n in run.nodes)
        assert any(n.get("action") == "OpenDM" for n in run.nodes)
        section = _node(run.nodes, "Channels")
        run.gui([click(section["x"], section["y"])])
        again = [n for n in run.nodes if n.get("action") == "OpenChannel"]
        assert len(again) == len(channels)
        got = run.gui([click(again[-1]["x"], again[-1]["y"])])
        assert [a for a, _ in got] == ["OpenChannel"]
    finally:
        run.close()
