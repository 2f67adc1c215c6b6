"""Computer players: pure strategies (bots/strategies), the bid suggestion, Celery tasks."""
