"""`webmdp import webstep` writes through the scrubbing writer: a bundle recorded elsewhere
that carries URL credentials (a userinfo password, an access token) brings none of them into
the run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from webmdp.cli.main import app

BUNDLE = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles" / "gmail_0001" / \
    "uitars.json"
PASSWORD = "bundlePASSWORD31"
TOKEN = "bundle-token-canary-77"


def test_an_imported_bundle_brings_no_url_credential(tmp_path: Path) -> None:
    bundle = json.loads(BUNDLE.read_text(encoding="utf-8"))
    url = f"https://agent:{PASSWORD}@mail.example/inbox?access_token={TOKEN}&q=1"
    bundle["turns"][0]["message"] += f" (opened {url})"
    bundle["turns"][-1]["message"] += f" then /file?X-Amz-Signature={TOKEN}&sig={TOKEN}"
    source = tmp_path / "bundles" / "gmail_0001" / "uitars.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps(bundle), encoding="utf-8")
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["import", "webstep", str(source), "--out", str(out)])
    assert res.exit_code == 0, res.output
    written = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.suffix == ".json" for p in written)
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert PASSWORD not in text and TOKEN not in text, path
    trace = next(p for p in written if p.suffix == ".json").read_text(encoding="utf-8")
    assert "agent:***@mail.example/inbox?access_token=***&q=1" in trace
    assert PASSWORD not in res.output
