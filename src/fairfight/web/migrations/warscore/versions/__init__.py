"""Revision scripts, loaded by Alembic from their files."""

__all__: list[str] = []
