"""Action notation: one stable, readable line per action (see the engine's module docstring).

Legal actions are already notation strings; this module reads what a person types (a number
from the listed menu, or the notation itself) and describes actions in words.
"""

from __future__ import annotations

from interpreter.errors import IllegalActionError

VERBS = ("take", "act", "bonus", "buy", "extra", "refresh", "seal", "use", "choose", "pick", "place", "plank", "resolve",
         "do", "discard", "end")


def normalise(text: str) -> str:
    """Canonical spelling of a typed action: single spaces, lower case."""
    return " ".join(text.strip().lower().split())


def parse(text: str, legal: list[str], verbs: tuple[str, ...] | None = None) -> str:
    """The legal action a line names: its 1-based number in ``legal``, or its notation. ``verbs``: the
    words an action may start with (default: this notation's; a pack's menu gives its own)."""
    verbs = VERBS if verbs is None else verbs
    line = normalise(text)
    if line.isdigit():
        n = int(line)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise IllegalActionError(line, f"choose a number from 1 to {len(legal)}")
    if line.split(" ", 1)[0] not in verbs:
        raise IllegalActionError(line, f"an action starts with one of: {', '.join(verbs)}")
    if line not in legal:
        raise IllegalActionError(line, "not legal now; legal actions: " + ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else ""))
    return line


def describe(action: str, decision_options: list[str] | None = None) -> str:
    """A short English line for an action, for menus and logs."""
    verb, _, arg = action.partition(" ")
    arg_words = arg.replace("_", " ")
    if verb == "choose" and decision_options:
        return f"choose: {decision_options[int(arg) - 1]}"
    return {
        "take": f"take the action tile {arg_words}",
        "act": f"perform {arg_words} as the main action",
        "bonus": "use the wheel bonus",
        "buy": f"buy the extra action (payment option {arg.split()[-1]})" if arg else "buy",
        "extra": f"perform {arg_words} as the extra action",
        "seal": f"claim the seal {arg_words}",
        "use": f"use {arg_words}",
        "pick": f"take {arg} from its row",
        "place": f"place {arg.replace(' at ', ' on ').replace(' rot ', ', rotation ')}",
        "plank": f"lay the tile as the bridge plank {arg_words}",
        "resolve": f"resolve {arg_words} now",
        "do": arg_words,
        "discard": f"discard one {arg_words}",
        "end": "end the turn",
    }.get(verb, action)
