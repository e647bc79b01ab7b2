"""Generic mechanisms, each parameterised by content and naming no game: hex geometry and board
graphs (hexes), a shared hex map with sites, enclosed areas and majorities (hex_map), a personal
hex area with connections and corner bonuses (hex_area), a rotating wheel of offers over a frame
of priced positions (wheel), and market rows refilled from stacks (market_rows).

They are pure libraries over compiled tables and plain values: the content layer uses them to
check at load that what validates can be played (a wheel's setup for every player count, a
board's connectivity), and the runtime uses them to play. So they sit below both, beside the DSL,
and import nothing but the top-level errors.
"""
