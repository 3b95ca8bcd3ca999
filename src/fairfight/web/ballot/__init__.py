"""Ballot at a table in the browser: the pages and JSON routes (`routes`, `api`, joined to the
app by `wing.register`), per-seat views, forms, live updates and notifications."""

__all__: list[str] = []
