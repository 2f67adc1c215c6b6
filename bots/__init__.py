"""Computer players: pure strategies (``strategies``) and the bid suggestion
(``suggestion``); their turns at live tables: what they read (``selectors``), playing a
turn (``turns``, run by the Celery task in ``tasks``), sending it after a commit
(``dispatch``, a receiver of the commit signal connected in ``apps``), re-sending it when
overdue (``watchdog``); the bid suggestion endpoint (``api``, ``urls``)."""
