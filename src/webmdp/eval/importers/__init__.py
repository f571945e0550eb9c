"""Importers of episodes recorded by others into our run layout (tasks, traces, results).

``webstep``: published WebSTEP episode bundles (docs/import-webstep.md).
"""

from webmdp.eval.importers.webstep import (
    BundleError,
    ImportSummary,
    RecordedValues,
    build_task,
    build_trace,
    import_webstep,
    read_bundle,
)

__all__ = ["BundleError", "ImportSummary", "RecordedValues", "build_task", "build_trace",
           "import_webstep", "read_bundle"]
