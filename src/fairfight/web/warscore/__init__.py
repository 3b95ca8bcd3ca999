"""Helpers of the war score pages: the form's fields and the builder behind them."""

__all__: list[str] = []
