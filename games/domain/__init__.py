"""The table domain: events, the state folded from them, and the decisions commands make.

Pure Python (no Django): the application services in ``games.services`` load and store.
"""
