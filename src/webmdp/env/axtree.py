"""Accessibility observation: element ids, roles, names and boxes, rendered as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCRIPT = (Path(__file__).parent / "axtree.js").read_text()


def render_axtree(nodes: list[dict[str, Any]]) -> str:
    """``[id] role "name"`` lines for interactive elements and plain lines for text."""
    lines = []
    for n in nodes:
        if not n.get("in_viewport", True):
            continue
        if n.get("noise") and "modal" in n:  # a noise element's own box (webmdp.env.noise)
            lines.append(f'  {n["role"]} "{n["name"]}"')
        elif n.get("id") is not None:
            value = f' value="{n["value"]}"' if n.get("value") else ""
            lines.append(f'[{n["id"]}] {n["role"]} "{n["name"]}"{value}')
        else:
            lines.append(f"  {n['name']}")
    return "\n".join(lines)
