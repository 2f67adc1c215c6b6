"""``python -m filetools TOOL ...``: the same as the ``spades-tools`` console script."""

from __future__ import annotations

from .cli import main

raise SystemExit(main(prog="python -m filetools"))
