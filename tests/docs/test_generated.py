"""The documentation's generated parts (scripts/docs_gen.py) say what the code says, and its
pictures are small enough for git and all in use."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from webmdp.sites import get_site
from webmdp.sites.registry import site_names

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import docs_gen  # noqa: E402

MAX_IMAGE_BYTES = 300 * 1024


@pytest.mark.parametrize("name", ["calendar", "mail"])
def test_site_tables_follow_the_declaration(name: str) -> None:
    site = get_site(name)
    actions = docs_gen.site_actions(name)
    assert actions.startswith(f"{len(site.actions)} typed actions")
    rows = [ln for ln in actions.splitlines() if ln.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [a.name for a in site.actions]
    surfaces = docs_gen.site_surfaces(name)
    assert all(f"`{s.name}`" in surfaces for s in site.surfaces)
    fields = docs_gen.site_fields(name)
    assert f"| card | {len(site.visibility.card_fields)} |" in fields
    templates = docs_gen.site_templates(name)
    assert all(f"`{t}`" in templates for t in site.templates)


def test_sites_table_totals_its_rows() -> None:
    text = docs_gen.sites_table()
    rows = [ln.split("|")[1:-1] for ln in text.splitlines()[2:]]
    body, total = rows[:-1], rows[-1]
    assert [r[0].strip().split("]")[0].lstrip("[") for r in body] == site_names()
    for col in (3, 4, 5):  # surfaces, actions, templates
        assert sum(int(r[col]) for r in body) == int(total[col])
    assert total[-1].strip() == f"{sum(int(r[-1].replace(',', '')) for r in body):,}"


def test_unknown_marker_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown generated part"):
        docs_gen.expand("<!-- webmdp:nonsense -->")
    assert docs_gen.expand("text\n<!-- not a marker -->\n") == "text\n<!-- not a marker -->\n"


def test_images_are_small_and_all_in_use() -> None:
    pages = "\n".join(p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
    used = set(re.findall(r"img/([\w.-]+\.(?:png|webp))", pages))
    images = sorted((ROOT / "docs" / "img").iterdir())
    assert images
    for img in images:
        data = img.read_bytes()
        assert len(data) <= MAX_IMAGE_BYTES, f"{img.name}: {len(data)} bytes"
        assert data[:8] == b"\x89PNG\r\n\x1a\n" or data[8:12] == b"WEBP", img.name
        assert img.name in used, f"{img.name} is in docs/img but no page shows it"
    assert used <= {i.name for i in images}, used - {i.name for i in images}


def test_front_door_stays_short_and_the_changelog_newest_first() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    assert len((ROOT / "DESIGN.md").read_text().splitlines()) <= 300
    heads = re.findall(r"^## Issues? (\d+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    numbers = [int(n) for n in heads]
    assert numbers == sorted(numbers, reverse=True) and numbers[-1] == 2, numbers
