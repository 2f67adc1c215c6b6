"""The REST edge of scoring: rule presets, ledgers and rescoring."""
