"""The report as one self-contained HTML file, rendered from the report's own Markdown.

The Markdown the report writes uses a small subset (headings, pipe tables, bullet lists,
paragraphs, ``**bold**``, `` `code` ``, backslash escapes, images); this renders exactly that
subset, escaping every piece of text (agent names and task text may contain anything an agent
typed; the Markdown carries it backslash-escaped, :func:`webmdp.eval.report.md_escape`, and it
is HTML-escaped once, after those escapes are undone), and embeds each image as a data URL so
the file reads offline.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;
margin:2em auto;padding:0 1em;color:#1d1d1f;line-height:1.45}
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}
h3{font-size:1.05em;margin-top:1.4em}
table{border-collapse:collapse;margin:.6em 0 1em;font-size:.88em}
th,td{border:1px solid #d0d0d0;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f3f3f3}
tr:nth-child(even) td{background:#fafafa}code{background:#f2f2f2;padding:0 .25em}
img{max-width:100%;margin:.5em 0}li{margin:.15em 0}
"""

_IMAGE = re.compile(r"^!\[(?P<alt>(?:\\.|[^\]\\])*)\]\((?P<src>[^)]+)\)$")
_ESCAPE = r"\\([!-/:-@\[-`{-~])"
"""A CommonMark backslash escape: a backslash before ASCII punctuation."""
_INLINE = re.compile(_ESCAPE + r"|`([^`]+)`|\*\*")
_CELL = re.compile(r"\|((?:\\.|[^\\|])*)(?=\|)")


def _plain(text: str) -> str:
    """``text`` with its backslash escapes undone (what it shows)."""
    return re.sub(_ESCAPE, r"\1", text)


def _inline(text: str) -> str:
    """``text`` as HTML: backslash escapes undone, `code` and **bold** applied, every piece
    of text escaped exactly once (the Markdown escapes what a trace wrote, the HTML escapes
    what that shows)."""
    out, pos, bold = [], 0, False
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append(html.escape(m.group(1)))
        elif m.group(2) is not None:
            out.append(f"<code>{html.escape(m.group(2))}</code>")
        else:
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out) + ("</strong>" if bold else "")


def _cells(line: str) -> list[str]:
    """The cells of a table row: text between ``|`` that no backslash escapes."""
    return [c.strip() for c in _CELL.findall(line.strip())]


def markdown_to_html(markdown: str, images: Mapping[str, bytes], title: str) -> str:
    """One HTML document; ``images`` maps each image path used in the Markdown to PNG bytes."""
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"]
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("#"):
            level = min(6, len(line) - len(line.lstrip("#")))
            out.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
        elif line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i])
                i += 1
            out.append(_table(block))
            continue
        elif line.startswith("- "):
            out.append("<ul>")
            while i < len(lines) and lines[i].startswith("- "):
                out.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            out.append("</ul>")
            continue
        elif m := _IMAGE.match(line.strip()):
            data = images.get(m.group("src"))
            if data is not None:
                src = "data:image/png;base64," + base64.b64encode(data).decode()
                out.append(f'<figure><img src="{src}" alt="{html.escape(_plain(m.group("alt")))}">'
                           f"<figcaption>{_inline(m.group('alt'))}</figcaption></figure>")
        else:
            out.append(f"<p>{_inline(line)}</p>")
        i += 1
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _table(block: list[str]) -> str:
    header, rows = _cells(block[0]), [_cells(r) for r in block[2:]]
    head = "".join(f"<th>{_inline(c)}</th>" for c in header)
    body = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
