"""The DSL's own vocabulary, which no pack declares: the types of expressions, the attributes every
record has at run time, the functions and the numbers about the game an expression may read
(resolve.py checks names against these and the pack's; compile.py, the guide and the English
renderer read them too)."""

from __future__ import annotations

NUMBER = "number"
BOOL = "bool"
DIRECTIONS = ("up", "down", "left", "right", "sideways")
PERIODS = ("turn", "round", "game")
# Attributes every record has at run time, whatever its kind.
RUNTIME_ATTRIBUTES = {"owned": BOOL, "covered": BOOL, "claimed": BOOL, "resolved": BOOL, "position": NUMBER,
                      "owner": NUMBER, "occupant": NUMBER}
# In a `where`, the record tested is of one kind (its zone's `holds:`), or of any kind (a zone without one).
ANY_KIND = "*"
# Functions of expressions: name -> argument categories, in order.
FUNCTIONS: dict[str, tuple[str, ...]] = {
    "position": ("track",),
    "value": ("track",),
    "row": ("grid",),
    "column": ("grid",),
    "row_value": ("grid",),
    "column_value": ("grid",),
    "table": ("table", NUMBER),
    "free": ("piece",),
    "min": (NUMBER, NUMBER),
    "max": (NUMBER, NUMBER),
    "die": ("die",),
    "rank": (NUMBER,),
    "most": (NUMBER,),
    "first_most": (NUMBER,),
}
FUNCTION_DOCS = {
    "position": "the space number of the player's marker on a track",
    "value": "the number printed on the marker's space of a track (e.g. capacity)",
    "row": "the row number (from 1 at the bottom) of the player's marker on a grid",
    "column": "the column number of the player's marker on a grid",
    "row_value": "the points printed for the marker's row on a grid",
    "column_value": "the value printed at the head of the marker's column on a grid",
    "table": "the points a scoring table gives for a count",
    "free": "how many of a piece the player has not placed",
    "min": "the smaller of two numbers",
    "max": "the larger of two numbers",
    "die": "the value a die shows (0 before its first roll)",
    "rank": "the player's place by a number over all players, evaluated as each of them: 1 for the most, "
            "tied players share a place (values 5, 5, 3 rank 1, 1, 3)",
    "most": "yes when no player has more of a number than the player (ties included)",
    "first_most": "yes when no player has more of a number than the player and none with as much comes before the "
                  "player in this phase's turn order (a tie goes to the earliest)",
}
# Names an expression reads about the game itself, when no resource or group of the pack has the name.
BUILTINS = {
    "seat": "the acting player's seat, from 1",
    "players": "the number of players",
    "round": "the round being played (0 in a game without rounds)",
    "passed": "how many players have passed in this phase (0 in a game without rounds)",
    "value": "the value of the piece put on a space, in that space's programs (its piece's `value`, a boost, a bonus); else 0",
    "visiting": "1 in the programs of a space run by `visit` (without a piece), else 0",
    "points": "the acting player's points so far",
}
