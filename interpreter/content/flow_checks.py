"""Checks of a pack's flow file (model/flow.py) across its phases, menus, spaces and dice and the pack.

Ids unique within phases, menus, a menu's entries, spaces and dice are checked with every other
nested list (references.py `nested_ids`); what is checked here needs more than one list: the menu a
phase takes turns in, whether a phase or the game can end, what an entry's argument comes from,
the verbs entries need, and the names the file borrows from the pack. `scope` gives the DSL texts
of the file what `this` is in them.

A pack on the generic core has a flow file. A pack whose turns are offers of the mechanisms library
(entries with `offers:`) keeps their equipment in a setup file; any other pack has no setup file.
"""

from __future__ import annotations

from collections import Counter

from interpreter.content.source import walk
from interpreter.content.turn_offers import ENDS_TURN, REQUIRED
from interpreter.dsl.resolve import Scope

# The fields of a phase that only a phase with turns has.
_TURN_FIELDS = ("menu", "order", "until", "turns_each", "simultaneous")
SPACES = "spaces"  # `from: spaces`: the argument is a space of the flow file


def check_flow(c, doc, m) -> None:
    """Every check of the flow file ``m`` (in ``doc``); ``c`` is the references Checker (err, ref, pack names)."""
    offered = uses_offers(m)
    if c.by_kind.get("setup") and not offered:
        setup_doc = c.by_kind["setup"][0][0]
        c.err(doc, ("kind",), "E205", f"a pack with a flow file is played by its flow and cannot also have a setup "
                                      f"file ({setup_doc.path}); drop one of them")
    elif offered and not c.by_kind.get("setup"):
        c.err(doc, ("menus",), "E201", "the flow's menus name turn offers (`offers:`), which take their equipment "
                                       "(rows, extra action costs, carry limit) from a setup file; the pack has none")
    _seatings(c, doc, m)
    if offered:
        _offer_flow(c, doc, m)
    else:  # what only the mechanisms library plays: an automatic seat's turn, the market rows' eras
        for field, what in (("automatic_turn", "an automatic seat's turn"), ("era_changes", "an era change")):
            if _set(m, field):
                c.err(doc, (field,), "E209", f"{what} is played by the mechanisms library, for a flow whose turns are "
                                             f"turn offers (`offers:`); this flow's menus have none: drop `{field}`")
    menus: dict = {}
    for menu in m.menus:
        menus.setdefault(menu.id, menu)  # a second menu of the same id is reported as such (E206)
    _phases(c, doc, m, menus)
    for i, menu in enumerate(m.menus):
        _menu(c, doc, ("menus", i), menu, m)
    for i, space in enumerate(m.spaces):
        if space.occupancy == "one_coloured_per_player_in_group" and space.group is None:
            c.err(doc, ("spaces", i, "occupancy"), "E201", f"space '{space.id}' is one coloured piece per player in "
                                                           "its group and needs a `group`")
        if space.occupied_cost is not None and space.group is None and space.capacity == 1:
            c.err(doc, ("spaces", i, "occupied_cost"), "E209", f"space '{space.id}' holds one piece and has no `group`, "
                                                               "so its `occupied_cost` is never paid; give it a `group`")
        phase_ids = {p.id for p in m.phases}
        if space.release not in ("round_end", "phase_end", "never") and space.release not in phase_ids:
            c.err(doc, ("spaces", i, "release"), "E204", f"space '{space.id}' is released at `round_end`, `phase_end`, "
                                                        f"`never` or the end of a phase of the flow ({', '.join(sorted(phase_ids))}), "
                                                        f"not '{space.release}'")
        if space.min_value and not _values_declared(c, m):
            c.err(doc, ("spaces", i, "min_value"), "E209", f"space '{space.id}' needs a piece worth {space.min_value}, but "
                                                           "no piece declares a `value` and no menu entry a `boost`")
    for i, die in enumerate(m.dice):
        if die.faces is not None and die.outcomes:
            c.err(doc, ("dice", i, "outcomes"), "E209", f"die '{die.id}' has both `faces` and `outcomes`; give one of them")
        elif die.faces is None and not die.outcomes:
            c.err(doc, ("dice", i), "E201", f"die '{die.id}' needs `faces` (1..faces) or a non-empty list of `outcomes`")
    if m.tie_break is not None:
        c.ref(doc, ("tie_break",), m.tie_break, c.resources, "E302", "resource")


def _values_declared(c, m) -> bool:
    """Whether a placed piece can be worth more than 0 by a declaration (a value bonus may still be 0)."""
    return (any(p.value is not None for p in c.pack.pieces) or any(s.value_bonus is not None for s in m.spaces)
            or any(e.boost is not None for menu in m.menus for e in menu.entries))


def _set(model, name: str) -> bool:
    return name in model.model_fields_set


def _phases(c, doc, m, menus: dict) -> None:
    every_round = False
    for i, ph in enumerate(m.phases):
        at = ("phases", i)
        if ph.kind == "automatic":
            if ph.run is None:
                c.err(doc, at, "E201", f"automatic phase '{ph.id}' needs `run`: the program it runs")
            for name in _TURN_FIELDS:
                if _set(ph, name):
                    c.err(doc, (*at, name), "E209", f"automatic phase '{ph.id}' takes no turns: drop `{name}`")
        elif ph.run is not None:
            c.err(doc, (*at, "run"), "E209", f"phase '{ph.id}' takes turns, so no `run`; make it `kind: automatic`, "
                                            "or run the program in `on_begin`")
        elif ph.menu is None:
            c.err(doc, at, "E201", f"phase '{ph.id}' takes turns and needs a `menu`")
        elif c.ref(doc, (*at, "menu"), ph.menu, set(menus), "E314", "menu"):
            _phase_can_end(c, doc, at, ph, menus[ph.menu])
            if ph.simultaneous:
                _simultaneous(c, doc, at, ph, menus[ph.menu])
        for j, r in enumerate(ph.rounds):
            if r < 1 or (m.rounds is not None and r > m.rounds):
                top = f"1..{m.rounds}" if m.rounds is not None else "1 or more"
                c.err(doc, (*at, "rounds", j), "E204", f"phase '{ph.id}' runs in round {r}, but the rounds are {top}")
        every_round = every_round or not ph.rounds
    if m.rounds is None:
        if m.end is None:
            c.err(doc, ("phases",), "E201", "the flow has no `rounds` and no `end`: the game would never end; "
                                            "give the number of rounds or the condition that ends it")
        elif not every_round:
            c.err(doc, ("phases",), "E209", "the flow has no `rounds`, so it needs a phase that runs every round "
                                            "(one without `rounds:`); else the rounds after the last listed are empty")


def _phase_can_end(c, doc, at: tuple, ph, menu) -> None:
    """A phase that goes round until every seat passed needs an entry that passes; turns need one that ends them."""
    if any(e.offers for e in menu.entries):
        return  # a menu of turn offers ends its turns with `end_turn` (checked with the menu)
    where = (*at, "until") if _set(ph, "until") else (*at, "menu")
    if ph.until == "all_passed":
        if not any(e.passes for e in menu.entries):
            c.err(doc, where, "E209", f"phase '{ph.id}' goes on until every seat passed, but no entry of menu "
                                      f"'{menu.id}' has `passes: true`; it would never end")
    elif not any(e.passes or e.ends_turn or e.offers == ENDS_TURN for e in menu.entries):
        c.err(doc, where, "E209", f"no entry of menu '{menu.id}' has `ends_turn` or `passes`, so a turn of phase "
                                  f"'{ph.id}' would never end")


def _simultaneous(c, doc, at: tuple, ph, menu) -> None:
    """The seats of a simultaneous phase each choose one action a turn: a fixed number of turns, each one pick."""
    if ph.until != "turns_each":
        c.err(doc, (*at, "until"), "E209", f"phase '{ph.id}' is simultaneous, so its seats take `turns_each` turns; "
                                          "a phase until every seat passed cannot be played simultaneously")
    for e in menu.entries:
        if not e.ends_turn:
            c.err(doc, (*at, "simultaneous"), "E209", f"phase '{ph.id}' is simultaneous, so each choice is a whole turn, "
                                                     f"but entry '{e.id}' of menu '{menu.id}' does not end the turn")
            break


def _menu(c, doc, at: tuple, menu, m) -> None:
    verbs: dict[str, str] = {}
    ids = [e.id for e in menu.entries]
    for j, e in enumerate(menu.entries):
        if e.word in verbs and e.id not in ids[:j]:  # a second entry of the same id is reported once, as such
            c.err(doc, (*at, "entries", j, "verb" if e.verb else "id"), "E206",
                  f"entries '{verbs[e.word]}' and '{e.id}' of menu '{menu.id}' share the verb '{e.word}'")
        verbs.setdefault(e.word, e.id)
    if any(e.offers for e in menu.entries):
        _offer_menu(c, doc, at, menu)
    zones = {z.id for z in c.pack.zones}
    sources = zones | {SPACES} | set(c.record_kinds)
    for j, e in enumerate(menu.entries):
        here = (*at, "entries", j)
        if e.steps and e.offers != ENDS_TURN:
            c.err(doc, (*here, "steps"), "E209", f"entry '{e.id}' does not end the turn with `offers: {ENDS_TURN}`, "
                                                 "so it has no end-of-turn `steps`: drop them")
        elif e.offers == ENDS_TURN:
            _end_steps(c, doc, here, menu, e)
        if e.offers is not None:
            for field in _NOT_WITH_OFFERS:
                if _set(e, field.rstrip("_")) or _set(e, field):
                    c.err(doc, (*here, field.rstrip("_")), "E209", f"entry '{e.id}' is the turn offer '{e.offers}', "
                                                                 f"which has its own rules: drop `{field.rstrip('_')}`")
        for field in ("needs", "not_while"):
            for k, verb in enumerate(getattr(e, field)):
                if verb == e.word:
                    c.err(doc, (*here, field, k), "E209", f"'{verb}' is the verb of entry '{e.id}' itself")
                else:
                    c.ref(doc, (*here, field, k), verb, set(verbs) - {e.word}, "E314", "verb")
        if e.from_ is not None:
            c.ref(doc, (*here, "from"), e.from_, sources, "E301", "zone, `spaces` or record kind")
        if e.piece is not None:
            if e.from_ != SPACES:
                c.err(doc, (*here, "piece"), "E209", f"entry '{e.id}' puts a piece only with `from: spaces`")
            else:
                c.ref(doc, (*here, "piece"), e.piece, c.pieces, "E301", "piece")
        elif e.from_ == SPACES:
            c.err(doc, (*here, "from"), "E201", f"entry '{e.id}' puts a piece on a space and needs `piece:`, the piece it puts")
        if e.from_ == SPACES and not m.spaces:
            c.err(doc, (*here, "from"), "E209", f"entry '{e.id}' picks a space, but the flow declares no `spaces`")
        if e.boost is not None and e.from_ != SPACES:
            c.err(doc, (*here, "boost"), "E209", f"entry '{e.id}' adds to a placed piece's value only with `from: spaces`")
        if e.cost is not None and e.payments:
            c.err(doc, (*here, "payments"), "E209", f"entry '{e.id}' has both `cost` and `payments`; "
                                                    "make the cost one of the payments")


def _offer_menu(c, doc, at: tuple, menu) -> None:
    """A menu of turn offers: every entry names one, each offer once, the required ones present, and
    no verb the first words of another (an action would read as either)."""
    seen: dict[str, str] = {}
    for j, e in enumerate(menu.entries):
        if e.offers is None:
            c.err(doc, (*at, "entries", j), "E201", f"menu '{menu.id}' is a menu of turn offers, so entry '{e.id}' "
                                                    "needs `offers:` too")
        elif e.offers in seen:
            c.err(doc, (*at, "entries", j, "offers"), "E206", f"entries '{seen[e.offers]}' and '{e.id}' both offer "
                                                              f"'{e.offers}'")
        else:
            seen[e.offers] = e.id
        for other in menu.entries:
            if other.word.startswith(e.word + " "):
                c.err(doc, (*at, "entries", j, "verb" if e.verb else "id"), "E209",
                      f"the verb '{e.word}' is the first word of '{other.word}': an action would read as either")
    missing = [name for name in REQUIRED if name not in seen]
    if missing:
        c.err(doc, (*at, "entries"), "E201", f"menu '{menu.id}' lacks the turn offers {', '.join(missing)}: a turn "
                                             "could not start or end without them")


def _end_steps(c, doc, at: tuple, menu, entry) -> None:
    """The end of a turn: each step once, and the wheel's turn when the menu takes offers from it."""
    seen: set[str] = set()
    for k, step in enumerate(entry.steps):
        if step in seen:
            c.err(doc, (*at, "steps", k), "E206", f"the end of the turn lists the step '{step}' twice")
        seen.add(step)
    if "turn_wheel" not in seen and any(e.offers == "take_offer" for e in menu.entries):
        c.err(doc, (*at, "steps") if entry.steps else at, "E201",
              f"entry '{entry.id}' ends turns that take an offer of the wheel, so its `steps` need `turn_wheel`: "
              "without it the offers taken never come back")


# What a flow of turn offers does without: its turns are the offers' (pieces on spaces and dice are
# for menus of content entries), in one phase of turns in seat order every round; the rest of a flow
# (a setup program, an end condition, a moving first seat, the phase's on_begin and on_end, ties
# and a tie break) runs on the same sequence points as any flow's.
_NOT_WITH_OFFER_FLOW = ("spaces", "dice")
_NOT_WITH_OFFER_PHASE = ("order", "until", "rounds", "run", "simultaneous")


def _offer_flow(c, doc, m) -> None:
    """A flow whose turns are turn offers: one phase of turns every round, in seat order, the rounds
    counted, and none of what its turns do not play (so nothing that validates is ignored)."""
    why = "a flow whose turns are turn offers plays one phase of turns in seat order every round"
    for field in _NOT_WITH_OFFER_FLOW:
        if _set(m, field):
            c.err(doc, (field,), "E209", f"{why}: drop `{field}`")
    if m.rounds is None:
        c.err(doc, ("phases",), "E201", f"{why}, so it needs its number of `rounds`")
    if len(m.phases) != 1 or m.phases[0].kind != "turns":
        c.err(doc, ("phases",), "E209", f"{why}: give it exactly one phase, of turns")
        return
    for field in _NOT_WITH_OFFER_PHASE:
        if _set(m.phases[0], field):
            c.err(doc, ("phases", 0, field), "E209", f"{why}: drop `{field}`")


# Fields a menu entry that names a turn offer does without.
_NOT_WITH_OFFERS = ("from_", "piece", "cost", "payments", "effect", "needs", "not_while", "ends_turn", "passes", "boost")


def uses_offers(m) -> bool:
    """Whether a flow's turns are offers of the mechanisms library (some menu entry names one)."""
    return any(e.offers is not None for menu in m.menus for e in menu.entries)


def _seatings(c, doc, m) -> None:
    """Seats per player count (each count once, at least one seat per player; automatic seats need their
    turn) and era changes before the last turn (which an overlay's shorter game may move past)."""
    lo, hi = c.pack.players.min, c.pack.players.max
    seats = {}
    if m.seatings:
        have = Counter(s.players for s in m.seatings)
        for n in range(lo, hi + 1):
            if have[n] != 1:
                c.err(doc, ("seatings",), "E209", f"seatings must describe {n} players exactly once (found {have[n]})")
        for i, st in enumerate(m.seatings):
            seats[st.players] = st.seats
            if st.seats < st.players:
                c.err(doc, ("seatings", i, "seats"), "E209", f"{st.players} players need at least {st.players} seats, not {st.seats}")
            elif st.seats > st.players and m.automatic_turn is None:
                c.err(doc, ("seatings", i, "seats"), "E201", f"{st.players} players at {st.seats} seats leave automatic "
                                                             "seats, which need the flow's `automatic_turn`")
    if not m.era_changes:
        return
    if m.rounds is None:
        c.err(doc, ("era_changes",), "E209", "era changes count turns, so the flow needs its number of `rounds`")
        return
    turns_each = m.rounds * max(1, sum(p.turns_each for p in m.phases if p.kind == "turns"))
    late = [(i, e) for i, e in enumerate(m.era_changes)
            if seats.get(e.players, e.players) >= e.players and e.after_turn >= seats.get(e.players, e.players) * turns_each]
    rounds_node, depth = walk(doc.root, ("rounds",))
    shortened = depth == 1 and rounds_node.span.path != doc.path  # an overlay changed the game's length
    by_length = []
    for i, e in late:
        node, depth = walk(doc.root, ("era_changes", i, "after_turn"))
        if shortened and not (depth == 3 and node.span.path != doc.path):
            by_length.append(e)
        else:
            n = seats.get(e.players, e.players)
            c.err(doc, ("era_changes", i, "after_turn"), "E209",
                  f"with {e.players} players the era change after turn {e.after_turn} is not before the last turn "
                  f"({n} seats x {turns_each} turns = {n * turns_each}); it would never happen")
    if by_length:
        which = ", ".join(f"{e.after_turn} ({e.players} players)" for e in by_length)
        c.err(doc, ("rounds",), "E209",
              f"in a game of {turns_each} turn(s) per seat the era changes after turns {which} come at or "
              "after the last turn and would never happen; change `era_changes` too")
    eras = Counter(e.players for e in m.era_changes)
    for i, e in enumerate(m.era_changes):
        if not lo <= e.players <= hi:
            c.err(doc, ("era_changes", i, "players"), "E204", f"the pack is for {lo}..{hi} players, not {e.players}")
        elif eras[e.players] > 1:
            c.err(doc, ("era_changes", i, "players"), "E206", f"two era changes for {e.players} players")


def scope(flow, path: tuple, pack, kinds) -> Scope:
    """What `this` is in a DSL text of the flow file: the argument of a menu entry that picks a record
    (of the zone's kind, or of any kind for a zone that holds any; of the record kind named), or the
    record a space declared `on:` a zone stands on, else nothing."""
    zones = {z.id: z for z in pack.zones} if pack is not None else {}
    if len(path) >= 3 and path[0] == "spaces" and flow.spaces[path[1]].on in zones:
        holds = zones[flow.spaces[path[1]].on].holds
        return Scope(this_kinds=(holds,) if holds is not None else tuple(kinds.records))
    if pack is None or len(path) < 4 or path[0] != "menus" or path[2] != "entries":
        return Scope()
    source = flow.menus[path[1]].entries[path[3]].from_
    if source in zones:
        holds = zones[source].holds
        if holds is not None:
            return Scope(this_kinds=(holds,))
        return Scope(this_kinds=tuple(kinds.records))
    if source in kinds.records:
        return Scope(this_kinds=(source,))
    return Scope()
