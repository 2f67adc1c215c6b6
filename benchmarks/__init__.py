"""Scripts that print figures (throughput, latency). Never timed assertions in tests."""
