"""The conquest show's routes, one module per area: the JSON API (`api`), the pages (`pages`),
writing (`write`: contributions, the payment webhook, airing), the airing schedule
(`schedule`), the operator's console (`operator`), share cards and feeds (`share`), the drawn
maps' outlines (`map_shapes`) and a fan's receipts checked with the log's proofs
(`my_contributions`). `fairfight.web.conquest.wing` mounts them."""

__all__: list[str] = []
