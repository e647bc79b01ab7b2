"""The DSL part of the authoring guide: what each construct means, and example templates.

``interpreter.authoring.guide`` fills each template with names the bundled pack declares (``{resource}`` is
its first resource, ``{track}`` its first track, ...), parses the result, checks its names against
the pack and shows it with its canonical text and its English reading. To document a new statement
or construct of the grammar, add a ``Construct`` here: ``tests/test_guide.py`` fails while a grammar
rule or keyword has no example.

Placeholders: ``{resource}``, ``{resource2}``, ``{resource3}``, ``{group}``, ``{piece}``,
``{action}``, ``{stack}``, ``{pool}`` (a face-up stack first), ``{permit}``, ``{colour}``,
``{track}``, ``{ptrack}`` (a track that produces), ``{grid}``, ``{table}``, ``{die}`` (a die of the flow file), ``{kind}`` (a buildable
record kind first), ``{num_attr}`` (a number attribute of ``{kind}``), ``{use_kind}`` and
``{use_field}`` (a record kind with an effect field), ``{rec_kind}`` and ``{rec_attr}`` (a kind with
a record attribute), ``{this_num_attr}`` (a number attribute of the kind ``this`` is bound to), and
from the pack's events: ``{kevent}``/``{kval}`` (an event with a key, and a value of it),
``{nevent}``/``{nparam}`` (a number parameter), ``{cevent}``/``{cparam}``/``{cval}`` (a name
parameter and a value), ``{revent}``/``{rparam}`` (a record parameter), ``{zone}``, ``{zone2}``, ``{zone3}``
(the pack's zones) and ``{rzone}`` (a zone that declares `refill:`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Construct:
    """One DSL construct as the guide shows it: a heading, its forms, what it means, examples."""

    title: str
    syntax: str  # the forms, separated by " · " when there are several
    what: str  # what it means, in a designer's words
    examples: tuple[str, ...]  # templates; each is filled, parsed, resolved and shown
    start: str = "program"  # the grammar start rule the examples are parsed from
    this: bool = False  # resolve the examples with `this` bound to a record (for `this` and `place`)
    needs: str = ""  # a category of names the pack must declare for the examples to be resolved against it


# Tables of names the resolver knows (interpreter/dsl/resolve.py) but does not describe.


DIRECTION_DOCS = {
    "up": "one row up, same column; pays the grid's `up_cost` (and a tier's `enter_cost`) unless `free` or discounted",
    "down": "one row down, same column",
    "left": "one square left",
    "right": "one square right",
    "sideways": "one square in the grid's `sideways` direction",
}
RUNTIME_DOCS = {
    "owned": "the acting player owns the record (holds it, or a zone statement put it into one of their zones)",
    "covered": "another tile lies on top of the record (a covered tile still counts as owned)",
    "claimed": "the record carries a claim (a piece) of the acting player",
    "resolved": "the record has been resolved and gives nothing more (e.g. an enclosed area)",
    "position": "the record's place in the zone that holds it: 1 for the top of a pile, its slot's number in a "
                "slotted zone (empty slots count), 0 when no zone holds it",
    "owner": "(a number) the seat, from 1, of the player who owns the record (whose zone it entered, or whose copy it "
             "is); 0 when nobody owns it",
    "occupant": "(a number) the seat, from 1, of the owner of the first piece on the space the record names (a "
                "space declared `on:` the zone that holds it, e.g. a piece on a card laid out in play); 0 when none is",
}
QUANTIFIER_DOCS = {
    None: ("the acting player's own records", "—"),
    "each": ("the acting player's own records", "each record of the acting player, one after the other"),
    "any": ("the acting player's own records", "one record the player chooses, whoever owns it"),
    "all": ("every record of the kind, whoever owns it (neutral ones too)", "every record of the kind"),
}
PERIOD_DOCS = {
    "turn": "the owner's turn (`once per turn`) / from the start of the owner's next turn (`from next turn`)",
    "round": "a round of every seat (`once per round`) / from the start of the next round (`from next round`)",
    "game": "the whole game (`once per game`); not allowed after `from next`",
}


STATEMENTS = (
    Construct("gain", "gain <amounts>",
              "Adds the amounts to the player's holdings. A resource with a `cap` never goes above it; the excess is lost.",
              ("gain 2 {resource} and 1 {resource2}",)),
    Construct("pay", "pay <amounts>",
              "Removes the amounts from the player's holdings. A payment is never partial: the player must hold all of it.",
              ("pay 1 {resource}, 1 {resource2}",)),
    Construct("score", "score <expression>", "Adds points to the player's score.", ("score 3", "score 2 * {resource3}")),
    Construct("advance", "advance <track> [<times>]",
              "Moves the player's marker one space forward on a track, or the given number of times. Each step is "
              "a separate advance with its own `on_reach` effect and triggers; on the last space the track's "
              "`beyond_top` runs instead of a move.",
              ("advance {track}", "advance {track} 2")),
    Construct("produce", "produce <track>",
              "Gains the track's `produces` resource, as many as the `value` of the marker's space, plus the "
              "`production` bonus of every space left of the marker and of a token placed on the track. Only a "
              "track with `produces:` can produce (E309).",
              ("produce {ptrack}",)),
    Construct("move", "move <grid> <direction> [<steps>] [<modifiers>]",
              "Moves the player's marker on a grid (directions are listed in the tables below), the given number "
              "of squares; the square reached runs its effect. Modifiers change what an `up` move costs.",
              ("move {grid} up", "move {grid} sideways 2")),
    Construct("perform", "perform <action> [<modifiers>]  ·  perform any [<modifiers>]",
              "Performs an action declared under `actions:` as if the player had chosen it: its effect runs and "
              "triggers on performed actions see it. `perform any` lets the player pick the action.",
              ("perform {action}", "perform any")),
    Construct("build", "build <tile kind> [<modifiers>]",
              "Takes a tile of a kind declared under `tile_kinds:` from its row, pays its cost and places it.",
              ("build {kind}",)),
    Construct("draw", "draw <count> from <stack> keep <n> [to <track>]  ·  draw all from <stack> keep <n> [to <track>]",
              "Looks at the top tiles of a stack (`all`: the whole stack or pool) and keeps some; the others go back. "
              "`to <track>` puts the kept piece on that track.",
              ("draw 3 from {stack} keep 1", "draw all from {pool} keep 1 to {ptrack}")),
    Construct("grant", "grant <permit> [or <statement>]",
              "Gives the player a permit for this turn, used by a `with <permit>` modifier. The `or` statement "
              "runs at the end of the turn if the permit was not used.",
              ("grant {permit} or score 1",)),
    Construct("use", "use <effect field> of any|each|all <record kind> [where <condition>]",
              "Runs an effect field of records of a kind, as if the player gained it: `any` one record the "
              "player chooses, `each` each of the player's own, `all` every one. For the kind whose records are "
              "dealt onto the map's areas (the map's `area_tiles`), `any` and `all` mean those in play; the rest "
              "are in the box. `where` filters the records; inside it, bare names are the record's attributes.",
              ("use {use_field} of any {use_kind}", "use {use_field} of each {use_kind} where not covered")),
    Construct("place", "place <piece> on this",
              "Puts one of the player's free pieces on the record the effect belongs to. Only in effects that "
              "belong to a record (E311 elsewhere).",
              ("place {piece} on this",), this=True),
    # moving records between the zones a pack declares under `zones:` (docs/core.md §3)
    Construct("draw ... to", "draw <count> from <zone> to <zone>  ·  draw all from <zone> to <zone>",
              "Without `keep`, and between zones: the top records of a zone go on top of another, in order (the "
              "first drawn on top). A zone declared `per: player` is the acting player's. When the zone runs out "
              "it refills once from its `refill:` zone (shuffled when declared, a chance node drawn from the "
              "game's seeded generator); with fewer records than asked, as many as there are move. `all`: every "
              "record the zone holds now. A record put into a player's zone becomes theirs. A full zone, or a "
              "slotted one with no free slot, refuses the draw.",
              ("draw 2 from {zone} to {zone2}", "draw all from {zone2} to {zone3}")),
    Construct("move ... to", "move this to <zone> [at top|end|<slot>]  ·  move all from <zone> to <zone> [at top|end|<slot>]",
              "`move this` takes the record the effect belongs to out of whichever zone holds it and puts it into "
              "the zone: on top of a pile (the default) or at its `end`; into the first free slot of a slotted "
              "zone (`end`: the last free one) or the slot named. `move all` moves every record of a zone, in "
              "order. Records moved into a player's zone become theirs; into a shared zone they keep their "
              "owner. Each moved record emits `record_moved`. A full zone or an occupied slot refuses the move.",
              ("move this to {zone3}", "move this to {zone} at end", "move all from {zone2} to {zone3}"), this=True),
    Construct("shuffle", "shuffle <zone>",
              "Puts the zone's records in a random order: a chance node drawn from the game's seeded generator, "
              "so a game stays a function of its seed.",
              ("shuffle {zone}",)),
    Construct("refill", "refill <zone>",
              "Refills a zone from the zone its `refill:` names (E321 when it names none): a slotted zone gets a "
              "record in each empty slot, in slot order, from the top (slots stay empty when it runs out); a pile "
              "takes every record of the refill zone under its own, shuffled first when the refill says so.",
              ("refill {rzone}",)),
    # the records of a zone, one after another (docs/core.md §3)
    Construct("for each in", "for each in <zone> [where <condition>]: <statement>",
              "Runs the statement once per record the zone holds (the acting player's zone, for one declared "
              "`per: player`), in zone order: a pile from the top, a slotted zone in slot order with empty slots "
              "skipped. Inside the statement `this` is that record, so `this.<attribute>`, `as owner:` and "
              "`move this to ...` act on it. The records are those the zone holds when the statement starts: "
              "one that a body moves away is still visited, one that comes in meanwhile is not. `where` tests "
              "each of them then, as the `where` of `count` does (bare names are the record's attributes; "
              "`this` there is still the effect's record); to test a record when its turn comes, put an `if` "
              "in the body. The record's runtime attribute `position` is its place in the zone: "
              "`where position <= <number>` stops where a number the player holds says. The "
              "statement cannot fail when its body cannot.",
              ("for each in {zone} where owned: score 1",
               "for each in {zone2}: { move this to {zone3} at end; as owner: gain 1 {resource} }",
               "for each in {zone} where position <= {resource}: score this.position")),
    Construct("choose one in", "choose one in <zone> [where <condition>]: <statement>",
              "The acting player picks one record the zone holds (their own zone, for one declared `per: player`) "
              "that passes the condition, and the statement runs with `this` being that record; the options are "
              "the records in zone order, answered `choose <n>`. `where` is tested as in `for each in` (bare "
              "names are the record's attributes, runtime attributes and marks). When no record passes, the "
              "statement cannot be carried out: guard it with `if count(<zone> where ...) > 0:` or put it in a "
              "`may`.",
              ("choose one in {zone} where owner == seat: move this to {zone3}",
               "may choose one in {zone2}: score this.position")),
    Construct("choose N in", "choose <N> in <zone> [where <condition>]: <statement>",
              "The acting player picks N different records of the zone, one after another, and the statement "
              "runs for each right after it is picked (`this` being it); each pick offers the records that pass "
              "the condition and were not picked yet. With fewer than N passing when it starts, the statement "
              "cannot be carried out. E.g. rewards that must all differ, kept as records of a zone.",
              ("choose 2 in {zone2}: score 1",)),
    Construct("require", "require <condition>",
              "The effect cannot be carried out unless the condition holds: an action or an answer that reaches "
              "it with the condition false is not offered (a level a card needs, a limit of cards). "
              "Inside a `choose`, it takes away only its own option.",
              ("require {resource} >= 3; score 2", "choose { require {resource} > 0; gain 1 {resource2} | score 1 }")),
    Construct("all at once", "all at once: <statement>",
              "What the acting player gains in the statement is received when it ends, so every cost in it is "
              "paid from what was held before it began: cards that all act at the same time, none paying with "
              "another's gain. Reductions (`reduced_by:`) are taken from each gain as it is made. It cannot "
              "fail by itself.",
              ("all at once: { may pay 1 {resource}: gain 2 {resource2}; gain 1 {resource} }",)),
    Construct("gains of ... times", "gains of <resource> [, <resource> ...] times <number>: <statement>",
              "While the statement runs, every gain the acting player makes of one of the resources named is "
              "multiplied by the number, read once when it starts (below 0 counts as 0; 1 changes nothing): a "
              "bonus that makes what some effects give twice as large. Only the acting player's gains: another "
              "player's, in a `for each player` or `as owner` inside, are not multiplied. Nested ones "
              "multiply; a gain after the statement is not multiplied. A gain is multiplied first, then "
              "reduced (`reduced_by:`); inside an `all at once` it is held multiplied. The resources are "
              "player resources of the pack (E302; not shared ones). It cannot fail by itself.",
              ("gains of {resource}, {resource2} times 2: { gain 1 {resource}; gain 1 {resource2} }",
               "gains of {resource} times (1 + {resource3}): gain 2 {resource}")),
    Construct("visit", "visit <space> [or <space> ...] at <value>",
              "The programs of a space the flow file declares run for the acting player without putting a "
              "piece there, as if one worth the value had been put: an action a card grants. The player picks "
              "the space (for a space declared `on:` a zone, one of that zone's records) and a boost (priced "
              "by the first menu entry that puts pieces on spaces with a `boost`). The value is the given one "
              "plus the space's `value_bonus` plus the boost; the space's `min_value` and `requires` must "
              "hold, its `cost` and the boost are paid, its `effect` runs, reading the value as `value` and "
              "`visiting` as 1 (0 when a piece is put there). Nothing goes on the space: its capacity, its "
              "occupancy and its `occupied_cost` play no part. With no space to visit the statement cannot be "
              "carried out, so put it in a `may` when the card is worth taking anyway. Only in a pack whose "
              "flow declares spaces (E311; E301 for an unknown space).",
              ("may visit {space} at 4",), needs="space"),
    Construct("put and take", "put <amounts> on this  ·  take <amounts> from this",
              "Counts a record keeps while it is in play: a mark the pack declares under `marks:` in pack.yaml "
              "(a card turned to its other side, a token set on it), or a player resource lying on it (goods stacked "
              "on a card). `put` adds to them, from the stock; `take` removes up to the amounts, no more than "
              "the record keeps, and a resource taken goes to the acting player (it is gained: its triggers "
              "fire). `this.<mark>` reads the count (0 when none), and so does the bare name in a `where`. A "
              "shared resource lies on no record (E302). Neither statement can fail.",
              ("put 2 {resource} on this", "take 1 {resource} from this", "if this.{resource} > 0: score 1"),
              this=True),
    # the flow's turn order (docs/core.md §5)
    Construct("join order", "join order",
              "The acting player takes the next place in the turn order of the next phase the flow file declares "
              "`order: recorded` (a space that sets the next round's order): the players who joined "
              "come first, in the order they joined, then the others in the order that phase had last time "
              "(seat order from the round's first seat before any). A player who joined already keeps their "
              "place. The players who joined are cleared when such a phase begins and takes its order from "
              "them; its order then stays, so a round in which nobody joins keeps it. Only in a pack whose "
              "flow has a phase with `order: recorded` (E311 elsewhere). It cannot fail.",
              ("gain 1 {resource}; join order",), needs="recorded_order"),
    # a record's effect field, run (docs/core.md §3)
    Construct("run", "run <field> of this · run <field> of <record>",
              "Runs an effect field of a record as a program: of `this` (the record the effect belongs to, the "
              "record a `for each in` body is about, the record a menu entry picked or a space stands on), or of "
              "a record named by its id. It runs for the acting player, so `as owner: run <field> of this` runs "
              "it for the record's owner; inside it `this` is that record and its points are the record's. A "
              "record without the field (an optional one it leaves out) runs nothing. The field must be an "
              "effect field of the record's kind (E308; of one of the kinds `this` can be); `of this` only in "
              "effects that belong to a record (E311). Whether it can fail depends on the record, so an entry "
              "that runs one is tried before it is offered.",
              ("run {this_field} of this", "as owner: run {this_field} of this",
               "run {use_field} of {use_record}"), this=True),
)

COMBINING = (
    Construct("Sequence", "<statement>; <statement>  ·  <statement> <line break> <statement>",
              "Statements run in order. Separate them with `;` or a line break (in a `|` block scalar). A line "
              "break inside brackets, or where a statement cannot end yet, just continues the statement.",
              ("gain 1 {resource}; score 1", "gain 1 {resource}\nadvance {track}\nscore 1")),
    Construct("Block", "{ <statement>; <statement> }",
              "Braces make several statements one, wherever one statement is expected: the body of a trigger, "
              "`may`, `may pay`, `if`, `else`, `repeat`, `grant ... or` and `later`.",
              ("may pay 1 {resource}: { score 2; advance {track} }",)),
    Construct("choose", "choose { <option> | <option> ... }",
              "The player picks exactly one option. Options are separated by `|`; an option may be several "
              "statements separated by `;`. At least two options (E105).",
              ("choose { gain 2 {resource} | gain 2 {resource2} }", "choose { gain 1 {resource}; advance {track} | produce {ptrack} }")),
    Construct("may", "may <statement>", "The statement is optional: the player decides whether to do it.",
              ("may move {grid} sideways",)),
    Construct("may pay", "may pay <amounts>: <statement>",
              "An optional paid effect: the player may pay the amounts, and only then gets the statement.",
              ("may pay 1 {resource}: score 4",)),
    Construct("later", "later: <statement>",
              "The player may resolve the statement at any moment of the current turn; whatever is left of it is "
              "resolved automatically before the turn ends.",
              ("later: move {grid} sideways", "gain 1 {resource}; later: may pay 1 {resource}: { advance {track}; score 1 }")),
    Construct("if", "if <condition>: <statement> [else: <statement>]",
              "Runs the statement when the condition holds, otherwise the `else` statement if there is one. An "
              "`else` belongs to the nearest `if`: brace an inner `if` to give the `else` to the outer one.",
              ("if {resource} >= 3: score 2", "if {resource} >= 3: score 2 else: gain 1 {resource}",
               "if {resource} >= 1: { if {resource2} >= 1: score 3 } else: score 1")),
    Construct("repeat", "repeat <times>: <statement>  ·  repeat: <optional statement>",
              "Runs the statement a number of times. Without a number the player repeats it as often as they "
              "like, so the statement must be optional (`may` or `may pay`, E312).",
              ("repeat 2: advance {track}", "repeat: may pay 1 {resource}: score 2")),
)

MODIFIERS = (
    Construct("free", "<move | perform | build> ... free", "The statement costs nothing.",
              ("perform {action} free", "move {grid} up free")),
    Construct("discount", "<move | perform | build> ... discount <amounts>", "The cost is reduced by the amounts.",
              ("perform {action} discount 1 {resource}",)),
    Construct("with", "<move | perform | build> ... with <permit>", "Uses a permit the player was granted (`grant`).",
              ("perform {action} with {permit}",)),
)

TRIGGERS = (
    Construct("on", "on <event>[(<key>)] [<options>]: <statement>",
              "Reacts to an event from now on. `(<key>)` narrows it to one value of the event's key parameter "
              "(see *Events*). A trigger ends the effect: a statement after it is an error (E110), so put a "
              "body of several statements in braces. Several triggers may follow one another.",
              ("on {kevent}: score 1", "on {kevent}({kval}): { gain 1 {resource}; score 1 }")),
    Construct("if (trigger option)", "on <event> if <condition>: ...",
              "A condition on the event, tested when it happens; `event.<parameter>` reads its parameters, "
              "`event.<parameter>.<attribute>` an attribute of a record parameter. Several `if` options must all hold.",
              ("on {nevent} if event.{nparam} >= 2: score 1", "on {cevent} if event.{cparam} == {cval}: score 2",
               "on {revent}({kind}) if event.{rparam}.{num_attr} >= 2: score 1")),
    Construct("while (trigger option)", "on <event> while <condition>: ...",
              "A state of the game that must hold when the event fires (for example where the player's marker stands).",
              ("on {kevent}({kval}) while position({track}) >= 2: score 2",)),
    Construct("once per (trigger option)", "on <event> once per turn|round|game: ...",
              "Fires at most once per turn, round or game.",
              ("on {kevent} once per turn: score 1", "on {kevent} once per round: score 1", "on {kevent} once per game: score 5")),
    Construct("from next (trigger option)", "on <event> from next turn|round: ...",
              "Active only from the owner's next turn (or the next round): an ability gained now works later.",
              ("on {kevent}({kval}) from next turn: score 1", "on {kevent} if {resource} >= 1 once per turn from next round: score 2")),
)

AMOUNTS = (
    Construct("Amounts", "<number> <resource>, ...  ·  (<expression>) <resource>",
              "Used by `gain`, `pay`, `may pay`, `discount` and by fields such as costs. Separate amounts with "
              "`,` or `and`; a computed amount goes in parentheses.",
              ("2 {resource}, 1 {resource2}", "1 {resource} and 1 {resource2}", "(count({kind})) {resource}"), start="amounts"),
)

EXPRESSIONS = (
    Construct("Arithmetic", "+  -  *  /  -x  ( )",
              "Whole numbers only: `/` rounds down and a division by zero gives 0. `*` and `/` bind tighter than "
              "`+` and `-`.",
              ("2 * {resource3} + 1", "({resource} + {resource2}) / 2", "9 - {resource}", "-{resource}"), start="expr"),
    Construct("Holdings and groups", "<resource>  ·  <group>",
              "A resource name is how many of it the player holds; a resource `group` name is the sum of its resources.",
              ("{resource3}", "{group}"), start="expr"),
    Construct("count", "count([any|each|all] <record kind> [where <condition>])",
              "How many records of a kind: the player's own, or with `all` everyone's. Inside `where`, bare "
              "names are the tested record's attributes (resource names still mean holdings).",
              ("count({kind})", "count(all {kind})", "count(all {kind} where {num_attr} == 1)"), start="expr"),
    Construct("count of a zone", "count(<zone> [where <condition>])",
              "How many records a zone holds (the player's own, for a zone declared `per: player`); `where` tests "
              "each record as for a kind, with the attributes of the kind the zone `holds:`. The runtime attribute "
              "`owned` also holds for a record a zone gave the player.",
              ("count({zone2})", "count({zone} where owned)"), start="expr"),
    Construct("this", "this  ·  this.<attribute>",
              "The record the effect belongs to, and its attributes: inside any effect field of a record, and in an "
              "icon's `effect`, where it is the tile carrying the icon. Elsewhere `this` is an error (E311).",
              ("score this.{this_num_attr}", "score count(all {rec_kind} where {rec_attr} == this.{rec_attr})"), this=True),
    Construct("event", "event.<parameter>  ·  event.<parameter>.<attribute>",
              "Inside a trigger: the event's parameters (see *Events*).",
              ("on {nevent}: score event.{nparam}",)),
)

CONDITIONS = (
    Construct("Comparisons", "==  !=  <  <=  >  >=",
              "Compare numbers; names of other things (a direction, a colour, an action, ...) compare with `==` "
              "and `!=` only.",
              ("{resource} >= 6", "{resource} != 0 and {resource2} < 3", "{resource} <= 4 or {resource2} > 1",
               "{resource} == 2"), start="condition"),
    Construct("and, or, not", "<condition> and <condition>  ·  or  ·  not  ·  ( )",
              "`not` binds tightest, then `and`, then `or`; use parentheses to group otherwise.",
              ("{resource} >= 9 or {resource2} >= 9", "not ({resource} >= 1 or {resource2} >= 1) and {resource3} > 0"),
              start="condition"),
    Construct("Truth", "<expression>", "An expression alone holds when it is not zero (for a yes/no attribute: when it is yes).",
              ("{resource3}", "not {resource3}"), start="condition"),
)

PLAYERS = (
    Construct("for each player", "for each player: <statement>  ·  for each other player: <statement>",
              "Runs the statement once for every seat, as that seat: what it gains, pays and scores is that "
              "player's, and a choice inside it is that player's to make. Seats take their turn in order from "
              "the round's first seat (seat 1 in a game without rounds), each seeing what the previous ones did. "
              "`for each other player` leaves out the acting player. The statement cannot fail when its body "
              "cannot.",
              ("for each player: gain 1 {resource}", "for each other player: { gain 1 {resource}; score 1 }",
               "for each player: if rank({resource}) == 1: score 5")),
    Construct("as owner", "as owner: <statement>",
              "Runs the statement for the player who owns the record the effect belongs to (`this`), whoever is "
              "acting: a record's effect that rewards its owner when another player uses it. When nobody owns "
              "the record the statement is skipped. Only in effects that belong to a record (E311 elsewhere).",
              ("as owner: gain 1 {resource}",), this=True),
    Construct("as occupant", "as occupant: <statement>",
              "Runs the statement for the owner of the piece on the space the record names (a space declared "
              "`on:` the zone that holds it, one per record, such as a piece on a card laid out in play), "
              "whoever is acting; for the owner of each piece, in the order they were put there, when the space "
              "holds several. With no piece there it is skipped. The record's attributes `owner` and `occupant` "
              "are those seats (from 1, 0 for nobody), so `if this.owner != this.occupant: as owner: ...` "
              "rewards the record's owner when another player's piece uses it. Only in effects that belong to a "
              "record (E311 elsewhere).",
              ("as occupant: gain 1 {resource}", "if this.occupant > 0 and this.owner != this.occupant: as owner: score 1"),
              this=True),
    Construct("roll", "roll <die>",
              "Rolls a die declared under `dice:` in the pack's flow file; `die(<die>)` then reads the value it "
              "shows. The roll draws from the game's seeded generator, so a game replays the same rolls from "
              "the same seed.",
              ("roll {die}; if die({die}) >= 4: gain 1 {resource}",)),
    Construct("rank and most", "rank(<expression>)  ·  most(<expression>)  ·  first_most(<expression>)",
              "`rank` is the acting player's place when every player is measured by the expression (evaluated "
              "as each of them): 1 for the most, and tied players share a place, so values 5, 5 and 3 rank 1, 1 "
              "and 3. `most` holds when no player has more (ties included). `first_most` holds for one player "
              "only: the most, a tie going to whoever comes first in the current phase's turn order (in seat "
              "order from the round's first seat outside a phase of turns), e.g. the one who offered that many "
              "first.",
              ("for each player: if rank({resource}) <= 2: score 3", "if most(count({kind})): score 2",
               "for each player: if first_most({resource}) and {resource} > 0: score 3")),
    Construct("The game's numbers", "seat  ·  players  ·  round  ·  passed",
              "`seat` is the acting player's seat from 1, `players` the number of players, `round` the round "
              "being played and `passed` how many players have passed in the current phase (the last two are "
              "0 in a game without rounds). A resource or group the pack declares with one of these names "
              "keeps its meaning.",
              ("score players - seat", "if round >= 3 and passed == 0: score 1")),
)

DSL_GROUPS = (
    ("Statements", STATEMENTS),
    ("Combining statements", COMBINING),
    ("Modifiers", MODIFIERS),
    ("Triggers", TRIGGERS),
    ("Amounts", AMOUNTS),
    ("Expressions", EXPRESSIONS),
    ("Conditions", CONDITIONS),
    ("Other players and chance", PLAYERS),
)
