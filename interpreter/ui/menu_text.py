"""The terminal's menu of legal actions, grouped and folded.

The actions are grouped by their next word (the first, or the one after a typed prefix); a group whose
actions differ only further on is folded into one line that says what varies in it
(`place wall_i_10 at -1,-1 rot <0..5>`), the largest groups first, until the menu fits in a screenful.
Typing a group's words lists it the same way one level down. Numbers stay those of the whole legal list,
so a number typed works whether its option is shown or folded.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINES = 24  # a menu longer than this folds its groups


@dataclass(frozen=True)
class Option:
    number: int  # 1-based, in the whole legal list
    action: str


@dataclass(frozen=True)
class Group:
    words: str  # the words its actions start with (what to type to open it)
    options: tuple[Option, ...]


def under(legal: list[str], prefix: str = "") -> list[Option]:
    """The legal actions that start with these words (all of them for none)."""
    return [Option(i, a) for i, a in enumerate(legal, 1) if not prefix or a == prefix or a.startswith(prefix + " ")]


def groups(options: list[Option], prefix: str = "") -> list[Group]:
    """The options by their word after ``prefix``, in the order each first appears; a prefix every option
    shares is followed down (so a lone group is split by its next word)."""
    depth = len(prefix.split())
    while True:
        by_word: dict[str, list[Option]] = {}
        for o in options:
            words = o.action.split(" ")
            by_word.setdefault(" ".join(words[: depth + 1]), []).append(o)
        if len(by_word) == 1 and len(options) > 1 and all(len(o.action.split(" ")) > depth + 1 for o in options):
            depth += 1
            continue
        return [Group(w, tuple(found)) for w, found in by_word.items()]


def pattern(actions: list[str]) -> str:
    """What a group's actions share and what varies: the words every action has at a place as they are,
    the others as `<n choices>` (or the few values, or a numeric range)."""
    split = [a.split(" ") for a in actions]
    longer = len({len(s) for s in split}) != 1  # some go on further: the words all have, then "..."
    parts = []
    for column in zip(*split):
        values = list(dict.fromkeys(column))
        if len(values) == 1:
            parts.append(values[0])
        elif all(v.lstrip("-").isdigit() for v in values):
            numbers = sorted(int(v) for v in values)
            parts.append(f"<{numbers[0]}..{numbers[-1]}>" if numbers == list(range(numbers[0], numbers[-1] + 1))
                         else "<" + "|".join(map(str, numbers)) + ">")
        elif len(values) <= 3:
            parts.append("<" + "|".join(values) + ">")
        else:
            parts.append(f"<{len(values)} choices>")
    return " ".join(parts + (["..."] if longer else []))


def lines(legal: list[str], describe, prefix: str = "") -> list[str]:
    """The menu's lines for the actions under ``prefix``: each option with its words (when they say more
    than its notation), the largest groups folded into one line each until the menu fits in MAX_LINES
    (groups of one size fold together, so like choices read alike)."""
    found = groups(under(legal, prefix), prefix)
    folded: set[int] = set()
    size = sum(len(g.options) for g in found)
    for fold in sorted({len(g.options) for g in found if len(g.options) > 1}, reverse=True):
        if size <= MAX_LINES:
            break
        for i, g in enumerate(found):
            if len(g.options) == fold:
                folded.add(i)
                size -= fold - 1
    out = []
    for i, group in enumerate(found):
        if i in folded:
            first, last = group.options[0].number, group.options[-1].number
            numbers = f"{first}-{last}" if last - first + 1 == len(group.options) else "..."
            out.append(f"  {numbers:>7}. {pattern([o.action for o in group.options])}"
                       f"   ({len(group.options)}: type `{group.words}`)")
            continue
        for o in group.options:
            said = describe(o.action)
            out.append(f"  {o.number:>7}. {o.action:<34} {said}" if said != o.action else f"  {o.number:>7}. {o.action}")
    return out
