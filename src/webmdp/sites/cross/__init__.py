"""The cross-site MDP: one episode over several sites (CAP)."""
