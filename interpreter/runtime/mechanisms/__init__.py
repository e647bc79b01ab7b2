"""Generic mechanisms the effect machine drives, each parameterised by content: hex geometry and
hex maps (sites, enclosed areas, majorities), a personal hex area, a rotating wheel of offers over
a frame of priced positions, market rows refilled from stacks, and the native frames that build,
move and place.
"""
