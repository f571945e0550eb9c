"""report/episodes.parquet has one explicit schema: the files of a semantic run, a browser
run, a model run and a cross-site run read together, in every order, with pyarrow.dataset (and
polars when it is installed); its metadata carries the schema version."""

from __future__ import annotations

import itertools
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.eval.analysis import analyse
from webmdp.eval.episode_schema import SCHEMA_VERSION, episode_schema
from webmdp.eval.load import load_runs
from webmdp.eval.write import write_report
from webmdp.testing.model_server import Reply, ScriptedModelServer

runner = CliRunner()


def _report(run: Path, out: Path) -> Path:
    return write_report(analyse(load_runs([run])), out)["parquet"]


def _run(out: Path, *args: str, mode: str = "semantic") -> Path:
    res = runner.invoke(app, ["run", "--out", str(out), "--mode", mode, *args])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("parquet")
    finish = Reply('{"thought": "done", "action": {"name": "Finish", "params": {}}}')
    with ScriptedModelServer(lambda _: finish) as srv:
        model = _run(root / "model", "--site", "mail", "-n", "2", "-a", "step", "--model",
                     "vllm/scripted", "--base-url", srv.base_url, "--api-key", "k",
                     "--no-preflight")
    runs = {
        # the random agent rarely commits: commit_step is null in most rows
        "semantic": _run(root / "semantic", "--site", "shopping", "-n", "3", "-a", "random"),
        "browser": _run(root / "browser", "--site", "food", "-n", "1", "-a", "oracle",
                        mode="browser"),
        "model": model,
        "cross": _run(root / "cross", "--suite", "cross-site", "-n", "2", "-a", "oracle"),
    }
    return {k: _report(v, root / f"rep-{k}") for k, v in runs.items()}


def test_every_file_has_the_one_schema(files: dict[str, Path]) -> None:
    for path in files.values():
        schema = pq.read_schema(path)
        assert schema.remove_metadata() == episode_schema().remove_metadata()
        assert schema.metadata[b"webmdp.schema_version"] == str(SCHEMA_VERSION).encode()
        assert not any(pa.types.is_null(f.type) for f in schema)


def test_files_read_together_in_every_order(files: dict[str, Path]) -> None:
    total = sum(pq.read_metadata(p).num_rows for p in files.values())
    for order in itertools.permutations(files.values()):
        table = ds.dataset([str(p) for p in order], format="parquet").to_table()
        assert table.num_rows == total
    with_planning = ds.dataset([str(files["model"]), str(files["semantic"])],
                               format="parquet").to_table()
    assert with_planning.column("coverage_trajectory").type == pa.list_(pa.float64())


def test_polars_reads_them_together(files: dict[str, Path]) -> None:
    pl = pytest.importorskip("polars")  # an optional reader; pyarrow above always runs
    for order in itertools.permutations(files.values()):
        frame = pl.concat([pl.read_parquet(p) for p in order], how="vertical")
        assert frame.height == sum(pq.read_metadata(p).num_rows for p in files.values())
