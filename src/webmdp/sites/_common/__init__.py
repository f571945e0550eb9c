"""Pieces every site shares: world assembly, result listing, Jinja views."""
