"""The clash part of the site: its routes (`routes`, joined to the app by `wing.register`),
single exchanges (the request models), the board sandbox, seats, live streams and the board's
drawing. The attack panel itself is `fairfight.clash.panel`'s value; the games are kept by
`fairfight.clash.store`."""

__all__: list[str] = []
