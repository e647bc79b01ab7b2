"""The guide's DSL sections: worked examples (each parsed, resolved against the pack and printed back
canonically and in English while the guide is generated) and the tables of functions, directions,
quantifiers, runtime attributes, options, periods, record kinds and keywords."""

from __future__ import annotations

import re
from dataclasses import dataclass

from interpreter.authoring.guide_examples import DIRECTION_DOCS, DSL_GROUPS, PERIOD_DOCS, QUANTIFIER_DOCS, RUNTIME_DOCS
from interpreter.content.symbols import piles
from interpreter.authoring.guide_markdown import DSL_WORDS, GuideError, code, prose, table
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import DslSyntaxError, grammar_text, parse
from interpreter.dsl.printer import to_text
from interpreter.dsl.resolve import BOOL, BUILTINS, DIRECTIONS, FUNCTION_DOCS, FUNCTIONS, NUMBER, PERIODS, RUNTIME_ATTRIBUTES, Scope, resolve


# Neutral names for examples when the pack declares nothing of a category: they only need to parse.
_FALLBACK = {"resource": ("brick", "clay", "ore"), "track": ("research",), "die": ("d6",),
             "zone": ("pile", "hand", "discard"), "rzone": ("market",), "space": ("field",)}


@dataclass(frozen=True)
class Example:
    text: str
    start: str
    canonical: str
    english: str


def _ids(models, kind: str, field: str) -> list[str]:
    return [r.id for m in models.get(kind, ()) for r in getattr(m, field)]


class Examples:
    """Names for the examples, read from the pack in declaration order; neutral stand-ins otherwise."""

    def __init__(self, rs):
        self.rs = rs
        self.symbols = rs.symbols
        self.names = rs.names
        pack = rs.single("pack")
        models = rs.models
        tracks = _ids(models, "tracks", "tracks") + [m.track for m in models.get("route", ())]
        declared = {
            "resource": [r.id for r in pack.resources],
            "group": list(dict.fromkeys(r.group for r in pack.resources if r.group)),
            "piece": [p.id for p in pack.pieces],
            "action": [a.id for a in pack.actions],
            "stack": [z.id for z in piles(pack)],
            "pool": [z.id for z in piles(pack) if z.visibility == "public"] + [z.id for z in piles(pack) if z.visibility != "public"],
            "permit": [p.id for p in pack.permits],
            "colour": list(pack.corner_colours),
            "symbol": [s.id for s in pack.edge_symbols],
            "icon": [i.id for i in pack.icons],
            "track": list(dict.fromkeys(tracks)),
            "ptrack": [t for t in tracks if t in self.symbols.producing_tracks],
            "grid": _ids(models, "projects", "grids"),
            "table": _ids(models, "scoring", "tables"),
            # buildable kinds first (in the order of `tile_kinds`), then the other record kinds
            "kind": list(dict.fromkeys([k.id for k in pack.tile_kinds if k.id in self.symbols.kinds] + list(self.symbols.kinds))),
            "direction": list(DIRECTIONS),
            "die": _ids(models, "flow", "dice"),
            "zone": [z.id for z in pack.zones],
            "space": sorted(self.symbols.categories.get("space", ())),
            "rzone": [z.id for z in pack.zones if z.refill],
        }
        self.declared = declared
        self.values: dict[str, str | None] = {}
        for cat, names in declared.items():
            for i, name in enumerate(names[:3]):
                self.values[cat if i == 0 else f"{cat}{i + 1}"] = name
        self._kind_attributes()
        self._events(pack)

    def _kind_attributes(self) -> None:
        kinds = self.symbols.kinds
        kind = self.values.get("kind")
        attrs = kinds[kind].attributes if kind in kinds else {}
        self.values["num_attr"] = next((a for a in sorted(attrs) if attrs[a] == NUMBER), None)
        use = next((k for k in kinds if kinds[k].effect_fields), None)
        self.values["use_kind"] = use
        self.values["use_field"] = sorted(kinds[use].effect_fields)[0] if use else None
        rec = next(((k, a) for k in self.declared["kind"] if k in kinds for a in sorted(kinds[k].attributes)
                    if kinds[k].attributes[a] == "record"), (None, None))
        self.values["rec_kind"], self.values["rec_attr"] = rec
        # `this` examples belong to a record of this kind
        this = rec[0] or kind
        self.this_kind = this
        this_attrs = kinds[this].attributes if this in kinds else {}
        self.values["this_kind"] = this
        self.values["this_num_attr"] = next((a for a in sorted(this_attrs) if this_attrs[a] == NUMBER), None)
        # `run F of this|R`: an effect field of the `this` kind, and a record of the kind `use` names
        self.values["this_field"] = min(kinds[this].effect_fields) if this in kinds and kinds[this].effect_fields else None
        self.values["use_record"] = next((r for r, k in self.symbols.record_kinds.items() if k == use), None)

    def _members(self, category: str) -> list[str]:
        if category == "kind":
            return self.declared["kind"]
        return self.declared.get(category, sorted(self.symbols.members(category)))

    def _events(self, pack) -> None:
        events = pack.events
        v = self.values
        for e in events:
            ptypes = {p.name: p.type for p in e.params}
            if e.key and self._members(ptypes[e.key]):
                members = self._members(ptypes[e.key])
                v.setdefault("kevent", e.id)
                v.setdefault("kval", members[0])
            for p in e.params:
                if p.type == NUMBER:
                    v.setdefault("nevent", e.id)
                    v.setdefault("nparam", p.name)
        for want_key in (False, True):  # prefer a parameter that is not the key
            for e in events:
                for p in e.params:
                    if p.type not in (NUMBER, "record") and (p.name == e.key) == want_key and self._members(p.type):
                        v.setdefault("cevent", e.id)
                        v.setdefault("cparam", p.name)
                        v.setdefault("cval", self._members(p.type)[0])
        for e in events:
            ptypes = {p.name: p.type for p in e.params}
            rparam = next((p.name for p in e.params if p.type == "record"), None)
            if rparam and e.key and ptypes[e.key] == "kind" and v.get("num_attr"):
                v.setdefault("revent", e.id)
                v.setdefault("rparam", rparam)

    # ------------------------------------------------------------ filling and checking
    def fill(self, template: str) -> tuple[str, bool]:
        """The template with names filled in, and whether every name came from the pack."""
        complete = True

        def sub(m: re.Match) -> str:
            nonlocal complete
            key = m.group(1)
            value = self.values.get(key)
            if value:
                return value
            complete = False
            base = key.rstrip("23")
            index = int(key[-1]) - 1 if key[-1] in "23" else 0
            stand_ins = _FALLBACK.get(base, ())
            return stand_ins[index] if index < len(stand_ins) else f"some_{base}"

        return re.sub(r"\{([a-z_]+[0-9]?)\}", sub, template), complete

    def example(self, template: str, start: str = "program", this: bool = False, needs: str = "") -> Example:
        text, complete = self.fill(template)
        complete = complete and (not needs or bool(self.symbols.categories.get(needs)))
        try:
            tree = parse(text, start)
        except DslSyntaxError as exc:
            raise GuideError(f"guide example does not parse: {text!r}: {exc}") from None
        if complete:
            scope = Scope(this_kinds=(self.this_kind,)) if this else Scope()
            problems = resolve(tree, self.symbols, scope).errors
            if problems:
                details = "; ".join(f"{p.code} {p.message}" for p in problems)
                raise GuideError(f"guide example does not resolve against the pack: {text!r}: {details}")
        return Example(text, start, to_text(tree), to_english(tree, self.names))


def _show(ex: Example) -> list[str]:
    fence = "caput" if ex.start == "program" else f"caput {DSL_WORDS[ex.start]}"
    return ["", f"```{fence}", ex.text, "```", "", f"- canonical: `{ex.canonical}`", f"- English: {prose(ex.english)}"]


def render_dsl(ex: Examples) -> str:
    parts = [
        f"Names in these examples come from the bundled pack (`{ex.rs.pack_id}`), so every example is "
        "checked against it when the guide is generated. Each shows what you write, the canonical text "
        "`caput` prints it back as, and its plain-English reading (the one `caput content report` uses).",
    ]
    for title, constructs in DSL_GROUPS:
        parts += ["", f"### {title}"]
        for c in constructs:
            parts += ["", f"#### {c.title}", "", f"`{c.syntax}`" if "·" not in c.syntax else
                      " · ".join(f"`{s.strip()}`" for s in c.syntax.split("·")), "", c.what]
            for template in c.examples:
                parts += _show(ex.example(template, c.start, c.this, c.needs))
    return "\n".join(parts)


def render_dsl_tables(rs, ex: Examples) -> str:
    parts = ["### Expression functions", ""]
    rows = []
    for fn in sorted(FUNCTIONS):
        args = ", ".join(f"<{a}>" for a in FUNCTIONS[fn])
        sample = ", ".join(_function_arg(a, i) for i, a in enumerate(FUNCTIONS[fn]))
        e = ex.example(f"score {fn}({sample})")
        rows.append((f"`{fn}({args})`", FUNCTION_DOCS.get(fn, "*(no description yet)*"), f"`{e.canonical}`", e.english))
    parts.append(table(("Function", "Value", "Example", "English"), rows))

    parts += ["", "### The game's numbers", "",
              "Plain names an expression reads about the game itself (a resource or group of the same name "
              "keeps its meaning).", ""]
    parts.append(table(("Name", "Value"), [(code(b), BUILTINS[b]) for b in BUILTINS]))

    parts += ["", "### Directions (for `move`)", ""]
    parts.append(table(("Direction", "Moves"), [(code(d), DIRECTION_DOCS.get(d, "*(no description yet)*")) for d in DIRECTIONS]))

    parts += ["", "### Quantifiers (for `count(...)` and `use`)", ""]
    parts.append(table(("Quantifier", "In `count(...)`", "In `use`"), [
        ("*(none)*" if q is None else code(q), *QUANTIFIER_DOCS[q]) for q in (None, "each", "any", "all")]))

    parts += ["", "### Runtime attributes", "",
              "Every record has these attributes while a game runs, whatever its kind (all yes/no but "
              "`position`, a number); use them in `where` conditions and after `this.`.", ""]
    parts.append(table(("Attribute", "Holds when (is)"), [
        (code(a), RUNTIME_DOCS.get(a, "*(no description yet)*")) for a in sorted(RUNTIME_ATTRIBUTES)]))

    parts += ["", "### Trigger options", "",
              "After `on <event>` or `on <event>(<key>)` and before the `:`, in any order (the canonical "
              "text puts them in the order below). `if` and `while` may appear several times; give "
              "`once per` and `from next` once each.", ""]
    parts.append(table(("Option", "Meaning"), [
        ("`if <condition>`", "a condition on the event, tested when it happens; all `if` options must hold"),
        ("`while <condition>`", "a state that must hold when the event fires"),
        ("`once per " + "|".join(PERIODS) + "`", "fires at most once per period"),
        ("`from next " + "|".join(PERIODS[:2]) + "`", "active only from the owner's next turn or the next round"),
    ]))
    parts += ["", table(("Period", "Meaning"), [(code(p), PERIOD_DOCS.get(p, "")) for p in PERIODS])]

    parts += ["", "### Record kinds", "",
              "The kinds effects can count (`count(<kind>)`), use (`use <field> of each <kind>`) and test in "
              "`where`. Attributes come from the model's number, yes/no and reference fields, from the icons "
              "the pack declares (yes when the tile carries the icon) and from the pack's `tile_kinds`; `build` "
              "works on the kinds the pack declares under `tile_kinds`.", ""]
    rows = []
    for name in sorted(rs.record_kinds):
        rk = rs.record_kinds[name]
        sig = rs.symbols.kinds.get(name)
        if sig is None:
            continue
        attrs = ", ".join(f"`{a}` ({_type_name(t)})" for a, t in sorted(sig.attributes.items()))
        rows.append((code(name), f"`{rk.file_kind}` › `{rk.field}`", ", ".join(code(f) for f in sorted(sig.effect_fields)) or "—",
                     attrs or "—", "yes" if sig.buildable else "no"))
    parts.append(table(("Kind", "Records in", "Effect fields (`use`)", "Attributes", "`build`"), rows))

    parts += ["", "### Keywords", "",
              "These words belong to the DSL and cannot be used as names of anything a pack declares (E318):", "",
              ", ".join(code(k) for k in sorted(keywords()))]
    return "\n".join(parts)


def keywords() -> set[str]:
    """The DSL's reserved words: every literal word of the grammar."""
    return set(re.findall(r'"([a-z]+)"', grammar_text()))


def _type_name(t) -> str:
    return {NUMBER: "number", BOOL: "yes/no", "record": "record"}.get(t, f"{t} name")


def _function_arg(category: str, index: int) -> str:
    """A sample argument of a function: a name of the category, or a number (a holding, then a count)."""
    if category == NUMBER:
        return "{resource}" if index == 0 else "count({kind})"
    return "{" + category + "}"
