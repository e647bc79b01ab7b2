"""Action notation: one stable, readable line per action (see the engine's module docstring).

Legal actions are already notation strings; this module reads what a person types (a number
from the listed menu, or the notation itself) and describes actions in words.
"""

from __future__ import annotations

from interpreter.errors import IllegalActionError

def normalise(text: str) -> str:
    """Canonical spelling of a typed action: single spaces, lower case."""
    return " ".join(text.strip().lower().split())


def parse(text: str, legal: list[str], verbs: tuple[str, ...]) -> str:
    """The legal action a line names: its 1-based number in ``legal``, or its notation. ``verbs``: the
    words an action may start with (the game's ``action_words()``)."""
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


# How the decisions the mechanisms ask are said (the turn's own verbs come from the pack's menu).
DECISION_PHRASES = {"pick": "take {arg} from its row"}


def describe(action: str, decision_options: list[str] | None = None, phrases: dict[str, str] | None = None,
             name=None) -> str:
    """A short English line for an action, for menus and logs; ``phrases``: verb -> how it is said
    (``{arg}``: the argument in words), from the game's menu (``action_phrases()``); ``name``: what an
    argument that is one id is called (content/labels.py), else the id in words."""
    verb, _, arg = action.partition(" ")

    def words(text: str) -> str:
        return name(text) if name is not None and text and " " not in text else text.replace("_", " ")

    if verb == "choose" and decision_options:
        return f"choose: {decision_options[int(arg) - 1]}"
    if verb == "place":
        return f"place {arg.replace(' at ', ' on ').replace(' rot ', ', rotation ')}"
    for known, phrase in sorted((phrases or {}).items(), key=lambda kv: -len(kv[0])):  # the longest verb first
        if action == known or action.startswith(known + " "):
            return phrase.format(arg=words(action[len(known) + 1:])).strip()
    phrase = DECISION_PHRASES.get(verb)
    return phrase.format(arg=words(arg) if verb != "pick" or name is not None else arg) if phrase else action
