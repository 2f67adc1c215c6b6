"""Loaded by pytest through ``-p`` (see pyproject.toml) before pytest-django imports the
settings, so the test run connects as the database owner: it creates the test database
(CREATEDB) and runs migrations. Running services connect as ``spades_app``.
"""

import os

os.environ["SPADES_DB_ROLE"] = "owner"
