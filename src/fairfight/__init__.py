"""fairfight: exact, reproducible and verifiable battle resolution for strategy games."""

__version__ = "0.1.0"
__all__ = ["__version__"]
