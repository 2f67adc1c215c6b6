"""The operations settings refuse a bad value at start-up with one sentence naming it
(services/settings.py run again with the variable set; nothing else is touched)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

SETTINGS = Path(__file__).resolve().parents[2] / "services" / "settings.py"


@pytest.mark.parametrize(
    ("variable", "value", "sentence"),
    [
        ("TRUSTED_PROXIES", "10.0.0.0/8,proxy.example", "TRUSTED_PROXIES: 'proxy.example' is not"),
        ("METRICS_ALLOWED_ADDRESSES", "256.1.1.1", "METRICS_ALLOWED_ADDRESSES: '256.1.1.1'"),
        ("THROTTLE_TRUSTED_PROXIES", "1", "THROTTLE_TRUSTED_PROXIES was replaced by TRUSTED_"),
        ("METRICS_TOKEN", "short", "METRICS_TOKEN must be 16 to 256 characters"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT must be plain or json"),
        ("SENTRY_DSN", "not a dsn", "SENTRY_DSN is not a Sentry DSN"),
        ("SENTRY_TRACES_SAMPLE_RATE", "2", "SENTRY_TRACES_SAMPLE_RATE must be a number from 0"),
        ("SPADES_WORKER_METRICS_PORT", "70000", "SPADES_WORKER_METRICS_PORT must be between"),
    ],
)
def test_a_bad_value_stops_the_settings(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, sentence: str
) -> None:
    monkeypatch.setenv("DEBUG", "1")
    monkeypatch.setenv(variable, value)

    with pytest.raises(ImproperlyConfigured) as refused:
        runpy.run_path(str(SETTINGS))

    assert sentence in str(refused.value)
