"""Schema migrations of the service's stores: `fairfight db upgrade` and `fairfight db current`.

See `runner` for the stores, the lock and the refusal of a newer database.
"""

from __future__ import annotations

from fairfight.web.migrations.runner import STORES, StoreState, current, store_urls, upgrade

__all__ = ["STORES", "StoreState", "current", "store_urls", "upgrade"]
