"""The pure core of leagues: pairing engines, standings, ratings, commitments.

Nothing here imports Django, psycopg, redis, channels or celery; every function is
deterministic from its arguments (a seed included where chance is involved), so a
projection can rebuild the same answer and an auditor can re-derive it from a file.
"""
