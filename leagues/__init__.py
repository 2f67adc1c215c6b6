"""Leagues, seasons and competitions (see docs/architecture.md): the package the
import contracts in pyproject.toml already name; its modules come with the leagues work."""
