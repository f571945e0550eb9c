"""`webmdp rl dataset` read by its consumer's own code: `datasets.load_dataset` takes both
formats, with the columns TRL's GRPOTrainer reads (`make test-train`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app

datasets = pytest.importorskip("datasets")
pytestmark = pytest.mark.train


@pytest.mark.parametrize(("suffix", "builder"), [(".jsonl", "json"), (".parquet", "parquet")])
def test_load_dataset_reads_what_rl_dataset_writes(tmp_path: Path, suffix: str,
                                                   builder: str) -> None:
    out = tmp_path / f"train{suffix}"
    res = CliRunner().invoke(app, ["rl", "dataset", "--site", "all", "--split", "train",
                                   "--level", "3", "--limit", "12", "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = datasets.load_dataset(builder, data_files=str(out), split="train")
    assert data.column_names == ["prompt", "task_id", "site", "template", "level", "split",
                                 "holdout", "split_version", "environment"]
    assert len(data) == 12 and set(data["level"]) == {3}  # an integer column
    assert set(data["split"]) == {"train"} and set(data["holdout"]) == {"task"}
    assert data[0]["prompt"][0]["role"] == "user" and data[0]["environment"] == data[0]["site"]
