"""The package's description on PyPI (``PYPI.md``, pyproject's ``readme``), built from README.md.

PyPI shows a description as it is: a link or image relative to the repository (``docs/...``)
is broken there, and webmdp has no public address to make them absolute. So the description
is the README with each relative link turned into its text and each relative image left out;
absolute links and in-page anchors stay. ``python scripts/pypi_readme.py`` rewrites
``PYPI.md``; ``tests/packaging/test_pypi_readme.py`` fails while it is out of date.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
KEEP = re.compile(r"^([a-z][a-z0-9+.-]*:|#)", re.I)
"""Targets that work on PyPI too: an address with a scheme, or an anchor on the page."""


def pypi_description(readme: str) -> str:
    def swap(m: re.Match[str]) -> str:
        image, text, target = m.groups()
        if KEEP.match(target):
            return m.group(0)
        return "" if image else text

    lines = []
    for line in readme.splitlines(keepends=True):
        new = LINK.sub(swap, line)
        if new.strip() or not line.strip():
            lines.append(new)  # a line that held only a relative image goes
    return re.sub(r"\n{3,}", "\n\n", "".join(lines))


def main() -> None:
    (ROOT / "PYPI.md").write_text(pypi_description((ROOT / "README.md").read_text()))


if __name__ == "__main__":
    main()
