"""Helpers of the clash pages: the panel as data, reconciliation, single exchanges, the
board sandbox and its game store."""
