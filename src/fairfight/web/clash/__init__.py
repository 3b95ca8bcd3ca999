"""Helpers of the clash pages: single exchanges (the request models), the board sandbox, its
drawing and its game store. The attack panel itself is `fairfight.clash.panel`'s value."""

__all__: list[str] = []
