"""Project-level API endpoints (index, health) and shared API plumbing."""
