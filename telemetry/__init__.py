"""What an operator sees of the platform: metrics, log context and format, error reports.

Beside ``eventstore``, and like it, it knows no app: the apps call it at narrow points
(one line each), and the processes (``services/``) serve what it gathered. Its modules:
``metrics`` (the Prometheus metrics and the calls that move them), ``edges`` (one call per
command or socket: its metrics and its log ids), ``logs`` (the log context and the JSON
line), ``exposition`` (serving the metrics to allowed scrapers only), ``networks`` (the
addresses allowed to scrape, or trusted as proxies) and ``errors`` (Sentry). See
docs/operations.md, "Metrics", "Logs" and "Error reports".
"""
