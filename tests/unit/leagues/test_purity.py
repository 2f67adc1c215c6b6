"""leagues.core and leagues.domain are pure: importing every module of them loads no
Django, database or queue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PROBE = """
import importlib, pkgutil, sys
import leagues.core, leagues.domain
for package in (leagues.core, leagues.domain):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
loaded = {name.split(".")[0] for name in sys.modules}
frameworks = {"django", "psycopg", "redis", "channels", "celery", "rest_framework"}
print(",".join(sorted(loaded & frameworks)))
"""


def test_leagues_core_and_domain_import_no_framework() -> None:
    # A fresh interpreter: this one already has Django loaded by pytest-django.
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert probe.stdout.strip() == ""
