"""The conquest show on the web: view models, the season catalog, contributions, live events.

The routes are in `routes/`, joined to the app by `wing.register`; the other modules hold
what they share.
"""

from fairfight.web.conquest.service import ConquestService

__all__ = ["ConquestService"]
