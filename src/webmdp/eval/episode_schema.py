"""The one Arrow schema of ``report/episodes.parquet``.

A type inferred from each run's rows breaks reading runs together: a column that is empty in
one run (``commit_step`` when nobody committed, the planning columns of a run without them)
was stored as ``null`` and clashed with ``double`` in another file, in pyarrow, polars and
pandas alike. Every column's type is therefore derived once from the row models
(:class:`~webmdp.eval.metrics.EpisodeMetrics`, and :class:`~webmdp.eval.planning.
PlanningMetrics` as ``planning_*`` columns): strings, ``int64``, ``double`` and ``bool``
scalars, ``list<string>`` / ``list<double>`` lists and ``map<string, bool>`` for a dict, every
column nullable. The file's metadata carries :data:`SCHEMA_VERSION` under
``webmdp.schema_version``. ``docs/episodes-parquet.md`` is the column reference.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from typing import Any

import pyarrow as pa
from pydantic import BaseModel

from webmdp.eval.metrics import EpisodeMetrics
from webmdp.eval.planning import PlanningMetrics

SCHEMA_VERSION = 1
PLANNING_SKIP = ("task_id", "agent", "mode", "infra_error")
"""Planning fields the episode columns already hold."""

_SCALARS: dict[type, pa.DataType] = {str: pa.string(), bool: pa.bool_(), int: pa.int64(),
                                     float: pa.float64()}


def arrow_type(annotation: Any) -> pa.DataType:
    """The Arrow type of a row model's field annotation (``None`` in a union: nullable)."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, types.UnionType):
        if len(args) != 1:
            raise TypeError(f"no Arrow type for the union {annotation}")
        return arrow_type(args[0])
    if origin is typing.Literal:
        return _scalar(type(args[0]))
    if origin is list:
        return pa.list_(arrow_type(args[0]))
    if origin is dict:
        return pa.map_(arrow_type(args[0]), arrow_type(args[1]))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return pa.string()
    return _scalar(annotation)


def _scalar(kind: Any) -> pa.DataType:
    if kind not in _SCALARS:
        raise TypeError(f"no Arrow type for {kind}")
    return _SCALARS[kind]


def _fields(model: type[BaseModel], prefix: str = "",
            skip: tuple[str, ...] = ()) -> list[pa.Field]:
    return [pa.field(prefix + name, arrow_type(info.annotation), nullable=True,
                     metadata={"description": info.description or ""})
            for name, info in model.model_fields.items() if name not in skip]


def episode_schema() -> pa.Schema:
    """Every column of ``episodes.parquet``, typed, with the schema version."""
    return pa.schema(_fields(EpisodeMetrics) + _fields(PlanningMetrics, "planning_",
                                                       PLANNING_SKIP),
                     metadata={"webmdp.schema_version": str(SCHEMA_VERSION)})


def episode_arrow_table(rows: list[dict[str, Any]]) -> pa.Table:
    """The rows as a table of :func:`episode_schema` (a column a row lacks is null; a dict
    becomes a map's key/value pairs)."""
    schema = episode_schema()
    columns = {}
    for f in schema:
        values = [r.get(f.name) for r in rows]
        if pa.types.is_map(f.type):
            values = [None if v is None else list(v.items()) for v in values]
        columns[f.name] = pa.array(values, type=f.type)
    return pa.table(columns, schema=schema)
