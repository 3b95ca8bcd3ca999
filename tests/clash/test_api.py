"""The package's public API."""

from __future__ import annotations

import inspect

import fairfight.clash as clash


def test_all_is_sorted_and_complete() -> None:
    assert clash.__all__ == sorted(clash.__all__)
    for name in clash.__all__:  # the package resolves its names on first use
        getattr(clash, name)
    public = {name for name, value in vars(clash).items()
              if not name.startswith("_") and not inspect.ismodule(value)}
    assert public == set(clash.__all__)
