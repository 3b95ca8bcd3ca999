"""The conquest show on the web: view models, the season catalog, contributions, live events.

Routes live in `fairfight.web.routes.conquest_*`; this package holds what they share.
"""

from fairfight.web.conquest.service import ConquestService

__all__ = ["ConquestService"]
