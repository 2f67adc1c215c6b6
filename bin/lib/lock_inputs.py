"""Print a digest of the parts of pyproject.toml that requirements/lock.txt is compiled from.

bin/lock records it in the lock; bin/lib/env.sh compares it before installing, so a lock
that no longer matches the declared dependencies is refused instead of silently installed.
Only the dependency lists count: editing tool settings in pyproject.toml needs no new lock.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib


def lock_inputs_digest(pyproject: str) -> str:
    with open(pyproject, "rb") as file:
        data = tomllib.load(file)
    project = data.get("project", {})
    inputs = {
        "build-system.requires": data.get("build-system", {}).get("requires", []),
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "dev": project.get("optional-dependencies", {}).get("dev", []),
    }
    encoded = json.dumps(inputs, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()


if __name__ == "__main__":
    print(lock_inputs_digest(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml"))
