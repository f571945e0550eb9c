"""Every fenced ``bash`` and ``python`` block of the README and the docs runs, page by page.

A page's runnable blocks run in order in one temporary directory (a reader follows a page top
to bottom: a later block may read what an earlier one wrote), with the installed ``webmdp`` on
``PATH`` and every model provider's base-URL variable pointed at a local scripted model server,
so an example shows the command a user types and still runs here. A python block with a file
name as its title (``python title="my_agent.py"``) is saved under that name, as the reader
would. A ``text`` block right after a runnable block is that block's output: the test checks
its shape (the lines without digits, a JSON object's keys), or, after "It prints exactly",
every line (a deterministic command). A block that
must not run is fenced ``console`` with a one-line ``<!-- not run: why -->`` right above it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from webmdp.agents.llm.clients import provider_info, provider_names
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUNNABLE = {"bash", "python"}
# Fence languages a page may use; `sh`/`shell`/`py`, or no language, would hide an example.
KNOWN = RUNNABLE | {"console", "text", "json", "jsonl", "yaml", "toml", "markdown", "html",
                    "bibtex"}
FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[A-Za-z0-9_-]*)(?P<info>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)```[ ]*$",
    re.M | re.S,
)
REASON = re.compile(r"^<!-- not run: \S.* -->$")
BLOCK_TIMEOUT_S = 240


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    body: str
    before: str  # the last non-blank line above the fence
    title: str = ""  # ```python title="my_agent.py"```: the file the reader saves it as
    output: str | None = None  # the text block that shows this block's output
    exact: bool = False  # "It prints exactly ...": the output, line for line

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    found: list[Block] = []
    end_of_last = 0
    for m in FENCE.finditer(text):
        indent = len(m["indent"])
        body = "\n".join(line[indent:] for line in m["body"].splitlines())
        above = [ln.strip() for ln in text[: m.start()].splitlines() if ln.strip()]
        title = re.search(r'title="([^"]+)"', m["info"])
        block = Block(
            page,
            text.count("\n", 0, m.start()) + 1,
            m["lang"],
            body,
            above[-1] if above else "",
            title=title.group(1) if title else "",
        )
        between = text[end_of_last : m.start()]
        if (
            block.lang == "text"
            and found
            and found[-1].lang in RUNNABLE
            and re.fullmatch(r"\s*(It prints[^:]*:|Output[^\n]*:)?\s*", between)
        ):
            found[-1].output = body
            found[-1].exact = "It prints exactly" in between
        found.append(block)
        end_of_last = m.end()
    return found


ALL = [b for p in PAGES for b in blocks(p)]


def test_pages_have_examples() -> None:
    """The collector sees the pages: a broken fence pattern would make every test vacuous."""
    runnable = [b for b in ALL if b.lang in RUNNABLE]
    assert len(runnable) >= 30, [b.where for b in runnable]
    assert {b.page.name for b in runnable} >= {"README.md", "get-started.md", "evaluate.md"}


@pytest.mark.parametrize("block", ALL, ids=lambda b: b.where)
def test_fence_is_runnable_or_says_why_not(block: Block) -> None:
    assert block.lang in KNOWN, (
        f"{block.where}: fence language {block.lang or '(none)'!r}; use bash or python "
        "(run by the suite) or console with a `<!-- not run: why -->` line above it"
    )
    if block.lang == "console":
        assert REASON.match(block.before), (
            f"{block.where}: a console block needs a one-line `<!-- not run: why -->` above it"
        )
    if block.lang in RUNNABLE:
        assert not block.before.startswith("<!-- not run"), (
            f"{block.where}: a block marked `not run` must be fenced console"
        )


def _reply(request: Request) -> Reply:
    """Any model call: finish at once (semantic JSON grammar); other grammars read it as an
    unparseable reply, which the agent's stop rule ends after three."""
    return Reply(
        text=json.dumps(
            {
                "thought": "The docs example ends here.",
                "action": {"name": "Finish", "params": {"answer": "done"}},
            }
        )
    )


@pytest.fixture(scope="module")
def model_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(_reply) as server:
        yield server


def _env(server: ScriptedModelServer) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for name in provider_names():  # every provider's own key and URL variables
        provider = provider_info(name)
        # the anthropic SDK takes the server's root; the openai SDK its /v1
        anthropic = provider.extra == "anthropic"
        env[provider.url_env] = server.root_url if anthropic else server.base_url
        env[provider.key_env] = "sk-docs-example-key"
    env["COLUMNS"] = "100"
    env.pop("WEBMDP_CODE_KEY", None)
    return env


def _shape_lines(text: str) -> list[str]:
    """The lines of an example's output that hold no digit, whitespace collapsed."""
    return [
        " ".join(ln.split()) for ln in text.splitlines() if ln.strip() and not re.search(r"\d", ln)
    ]


def _json_dict(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def check_shape(block: Block, out: str) -> None:
    expected = block.output or ""
    if block.exact:  # a deterministic command: every line, whitespace aside
        def lines(text: str) -> list[str]:
            return [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]

        assert lines(out) == lines(expected), (
            f"{block.where}: shown as printed exactly, but the command printed:\n{out}")
        return
    try:
        shown = json.loads(expected)
    except ValueError:
        shown = None
    if isinstance(shown, dict):
        got = json.loads(out.strip().splitlines()[-1] if out.strip() else "{}")
        assert set(shown) <= set(got), f"{block.where}: keys {set(shown) - set(got)} missing"
        return
    lines = [ln for ln in expected.splitlines() if ln.strip()]
    shown_rows = [_json_dict(ln) for ln in lines]
    if any(r is not None for r in shown_rows):  # JSON lines: the same keys, line by line
        got_rows = [_json_dict(ln) for ln in out.splitlines() if ln.strip()]
        assert len(got_rows) == len(shown_rows), f"{block.where}: printed {out}"
        for want, got in zip(shown_rows, got_rows, strict=True):
            assert (want is None) == (got is None), f"{block.where}: printed {out}"
            if want is not None and got is not None:
                assert set(want) == set(got), f"{block.where}: keys {set(want)} vs {set(got)}"
        return
    have = {" ".join(ln.split()) for ln in out.splitlines()}
    flat = " ".join(out.split())
    for line in _shape_lines(expected):
        assert line in have or line in flat, (
            f"{block.where}: the output shown has the line {line!r}; the command printed:\n{out}"
        )
    header = next((ln for ln in expected.splitlines() if ln.strip()), "")
    if header and not re.search(r"\d", header):
        cols = header.split()
        assert any(ln.split() == cols for ln in out.splitlines()), (
            f"{block.where}: no line with the columns {cols}; the command printed:\n{out}"
        )


def run_block(block: Block, cwd: Path, env: dict[str, str]) -> str:
    if block.lang == "bash":
        cmd = ["bash", "-e", "-o", "pipefail", "-c", block.body]
    else:
        script = cwd / (block.title or f"_example_{block.line}.py")
        script.write_text(block.body)
        cmd = [sys.executable, str(script)]
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, (
        f"{block.where} exited {proc.returncode}:\n{block.body}\n--- stdout\n{proc.stdout[-3000:]}"
        f"\n--- stderr\n{proc.stderr[-3000:]}"
    )
    return proc.stdout


RUN_PAGES = [p for p in PAGES if any(b.lang in RUNNABLE for b in blocks(p))]


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page: Path, tmp_path: Path, model_server: ScriptedModelServer) -> None:
    env = _env(model_server)
    for block in blocks(page):
        if block.lang not in RUNNABLE:
            continue
        out = run_block(block, tmp_path, env)
        if block.output is not None:
            check_shape(block, out)
