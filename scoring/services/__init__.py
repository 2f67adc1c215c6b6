"""Application services of the scoring app (presets, rescoring)."""
