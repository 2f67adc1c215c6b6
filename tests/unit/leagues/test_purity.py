"""leagues.core is pure: importing every module of it loads no Django, database or queue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PROBE = """
import importlib, pkgutil, sys
import leagues.core as core
for module in pkgutil.iter_modules(core.__path__):
    importlib.import_module("leagues.core." + module.name)
loaded = {name.split(".")[0] for name in sys.modules}
frameworks = {"django", "psycopg", "redis", "channels", "celery", "rest_framework"}
print(",".join(sorted(loaded & frameworks)))
"""


def test_leagues_core_imports_no_framework() -> None:
    # A fresh interpreter: this one already has Django loaded by pytest-django.
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert probe.stdout.strip() == ""
