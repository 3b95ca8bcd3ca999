"""The war store's schema revisions (Alembic scripts in `versions/`)."""

__all__: list[str] = []
