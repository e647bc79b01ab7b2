"""The runtime layer: game state, the OpenSpiel-shaped ``Game`` API, the effect machine, the flow
and its sequence points, notation, offers and the static pass over compiled programs.

It receives an assembled ``Ruleset`` from the content layer and never reads YAML, pydantic models
or the grammar on the hot path; it imports nothing from ``play``, ``ui`` or ``authoring``.
"""
