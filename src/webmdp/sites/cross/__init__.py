"""The cross-site MDP: one episode over several sites (CAP)."""

__all__: list[str] = []
"""Nothing here is imported by name: the cross-site MDP is ``get_site("cross-site")``."""
