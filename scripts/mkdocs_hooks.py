"""MkDocs hooks: the pages and tables generated from the code (``scripts/docs_gen.py``).

``on_files`` adds the reference pages that are entirely generated (the CLI, by Typer's own
generator; the Python API and the site toolkit, by mkdocstrings); ``on_page_markdown``
expands the markers a hand-written page holds (``<!-- webmdp:site mail -->``) into the
tables the code gives.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_gen

GENERATED = {"reference/cli.md": docs_gen.cli_reference, "reference/api.md": docs_gen.api_reference,
             "reference/toolkit.md": docs_gen.toolkit_reference}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, make in GENERATED.items():
        files.append(File.generated(config, uri, content=make()))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return docs_gen.expand(markdown)


# Docstrings cite code with reST roles (``:class:`Site```); mkdocstrings renders the backquoted
# part as code and leaves the role's name as text, which the page drops.
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj|const):(?=<code)")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return ROLE.sub("", html)
