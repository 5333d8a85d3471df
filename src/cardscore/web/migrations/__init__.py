"""Alembic migrations, shipped inside the package and applied by :mod:`cardscore.web.migrate`."""
