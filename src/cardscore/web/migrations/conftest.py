"""Keep pytest's doctest collection away from Alembic's env.py (it only runs under Alembic)."""

collect_ignore = ["env.py"]
