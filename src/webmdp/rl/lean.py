"""Import OpenEnv without its web interface: ``openenv.core.env_server`` imports gradio (its
optional web UI) for about 1.7 s of a server's 2.6 s start, and webmdp serves no web UI. The
package already treats the interface as optional (a missing module leaves
``create_web_interface_app`` None), so :func:`skip_web_interface` marks that one module
missing while the package loads, then unmarks it: a later explicit import of
``openenv.core.env_server.web_interface`` still works. Importing this module does it (the
OpenEnv modules of :mod:`webmdp.rl` import it first)."""

from __future__ import annotations

import sys

WEB_INTERFACE = "openenv.core.env_server.web_interface"


def skip_web_interface() -> None:
    """Load ``openenv.core.env_server`` with its web interface left out (once; a no-op when
    it is loaded already)."""
    if "openenv.core.env_server" in sys.modules or WEB_INTERFACE in sys.modules:
        return
    sys.modules[WEB_INTERFACE] = None  # type: ignore[assignment]  # import: ModuleNotFoundError
    try:
        import openenv.core.env_server  # noqa: F401
    finally:
        if sys.modules.get(WEB_INTERFACE, ...) is None:
            del sys.modules[WEB_INTERFACE]


skip_web_interface()
