"""Text for small spaces: effect texts shortened (``short``) and wrapped to a width (``wrap``)."""

from __future__ import annotations

import re

CHAR_W = 0.48  # average glyph width of the drawing font, in font sizes (for wrapping)

_ID = re.compile(r"\b([a-z]+)((?:_[a-z]+)+)\b")


def _abbrev(m: re.Match) -> str:
    parts = m.group(0).split("_")
    if len(m.group(0)) <= 9 or len(parts[-1]) < 4:
        return m.group(0)
    return ".".join(p[0] for p in parts[:-1]) + "." + parts[-1]


def short(text: str | None, compact: bool = True) -> str:
    """An effect or amounts text shortened for a small space: `gain 2 clay_brick; score 2` ->
    `+2 c.brick · 2VP`. The verbs are the effect language's; names stay the content's own
    (abbreviated when ``compact``)."""
    if not text:
        return ""
    t = " ".join(str(text).split())
    t = re.sub(r"\bfrom next turn\b", "", t)
    t = re.sub(r"\bonce per (\w+)", r"1/\1", t)
    t = re.sub(r"\blater:\s*", "", t)
    t = re.sub(r"\brepeat:\s*", "repeat: ", t)
    t = re.sub(r"\bmay pay ([^:]+):\s*", r"\1 → ", t)
    t = re.sub(r"\bpay ([^:;]+)", r"−\1", t)
    t = re.sub(r"\bmay\s+", "", t)
    t = re.sub(r"\bgain (\d+) ", r"+\1 ", t)
    # a count of records, maybe filtered: `score 3 * count(upgrade where era == 1)` -> `3VP per upgrade (era 1)`
    t = re.sub(r"\bscore (\d+) \* count\((\w+) where (\w+) == (\w+)\)", r"\1VP per \2 (\3 \4)", t)
    t = re.sub(r"\bscore (\d+) \* count\((\w+)\)", r"\1VP per \2", t)
    t = re.sub(r"\bscore (\d+)\b(?!\s*[*/+-])", r"\1VP", t)
    t = re.sub(r"\bscore\s+", "VP ", t)
    t = re.sub(r"\badvance (\w+) (\d+)\b", r"\1 +\2", t)
    t = re.sub(r"\badvance (\w+) this\.(\w+)", r"\1 +\2", t)
    t = re.sub(r"\badvance (\w+)", r"\1 +1", t)
    t = re.sub(r"\bmove (\w+) up\b", r"\1 ↑", t)
    t = re.sub(r"\bmove (\w+) sideways\b", r"\1 ↔", t)
    t = re.sub(r"\bdiscount ([^;|}]+)", r"(−\1)", t)
    t = re.sub(r"\bgrant (\w+) or\b", r"\1 or", t)
    t = re.sub(r"\bdraw (\w+) from (\w+) keep (\w+)", r"draw \1 \2 keep \3", t)
    t = re.sub(r"\bchoose\s*\{", "", t)
    t = t.replace("{", "").replace("}", "").replace(" | ", " / ")
    t = re.sub(r"\s*;\s*", " · ", t)
    if compact:
        t = _ID.sub(_abbrev, t)
    return " ".join(t.split()).strip(" ·")


def wrap(text: str, width: float, size: float, lines: int = 2) -> list[str]:
    """Greedy word wrap to ``width`` pixels at font ``size``; the last line ends in … when cut."""
    if not text:
        return []
    per = max(3, int(width / (size * CHAR_W)))
    out: list[str] = []
    cur = ""
    for word in text.split():
        while len(word) > per:
            if cur:
                out.append(cur)
                cur = ""
            out.append(word[:per])
            word = word[per:]
        if not cur:
            cur = word
        elif len(cur) + 1 + len(word) <= per:
            cur += " " + word
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        out[-1] = (last[: per - 1] if len(last) >= per else last) + "…"
    return out
