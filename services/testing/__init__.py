"""Test-only helpers (imported by pytest, never by running services)."""

#: The SECRET_KEY of test runs and benchmarks (DEBUG is off there, so settings refuse the
#: public development key). Not a secret either: nothing it signs leaves the machine.
LOCAL_ONLY_SECRET_KEY = "spades-local-runs-only-tests-and-benchmarks-not-a-secret-3f9c1e"
