"""The content layer: YAML with positions, packs and overlays, the pydantic models, the schema
check, names and references, the static checks of an assembled game, and the pipeline that turns a
pack folder into a frozen ``Ruleset`` (``load_ruleset``). JSON Schema export lives here too.

Imports point down only: this layer uses ``interpreter.dsl`` and the top-level errors and paths.
"""
