"""Leagues use cases: load a competition's stream, decide, append (one transaction)."""
