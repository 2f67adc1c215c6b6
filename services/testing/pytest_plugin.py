"""Loaded by pytest through ``-p`` (see pyproject.toml) before pytest-django imports the
settings, so the test run connects as the database owner: it creates the test database
(CREATEDB) and runs migrations. Running services connect as ``spades_app``.

It also gives the run (and the processes it starts, which inherit the environment) a
SECRET_KEY: with DEBUG off the settings refuse to start on the development key.
"""

import os

from services.testing import LOCAL_ONLY_SECRET_KEY

os.environ["SPADES_DB_ROLE"] = "owner"
os.environ.setdefault("SECRET_KEY", LOCAL_ONLY_SECRET_KEY)
