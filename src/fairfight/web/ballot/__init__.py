"""Ballot at a table in the browser: per-seat views, forms, live updates and notifications."""

__all__: list[str] = []
