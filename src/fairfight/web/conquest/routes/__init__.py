"""The conquest show's routes, one module per area: the JSON API (`api`), the pages (`pages`),
writing (`write`: contributions, the payment webhook, airing), the airing schedule
(`schedule`), the operator's console (`operator`), share cards and feeds (`share`) and the drawn
maps' outlines (`map_shapes`). `fairfight.web.conquest.wing` mounts them."""

__all__: list[str] = []
