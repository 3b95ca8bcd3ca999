"""The war score part of the site: its routes (`routes`, joined to the app by `wing.register`),
the form's fields and the builder behind them."""

__all__: list[str] = []
