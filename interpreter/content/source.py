"""Load YAML content with a position for every key and value.

This is the only module that imports ruamel. We read the event stream of
ruamel's round-trip parser and build our own small node tree from it, so:

* no YAML constructor ever runs: a tag such as ``!!python/object/apply`` is
  rejected before anything could act on it (content is data, never code);
* every node keeps its start *and* end position and its scalar style, which
  lets the DSL report errors at the right column inside a string, block
  scalars included;
* duplicate keys, anchors/aliases, invalid UTF-8 and oversized files are
  reported as ordinary content errors at ``file:line:col``.

Plain scalars are typed by the YAML 1.2 core schema (null, bool, int, float,
string); quoted and block scalars are always strings.
"""

from __future__ import annotations

import math
import pickle
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from interpreter.errors import ErrorBag, Span

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 100  # nesting of mappings and lists; real content stays far below
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # what YAML counts as a line break
_BREAK_CHARS = "\n\r\x85\u2028\u2029"


# --------------------------------------------------------------------------- nodes


@dataclass(slots=True)
class Node:
    span: Span


@dataclass(slots=True)
class Scalar(Node):
    value: Any
    style: str | None  # None = plain, "'", '"', "|", ">"
    raw: str = ""  # the source text of the scalar, indicators and quotes included
    _positions: list[tuple[int, int]] | None = field(default=None, repr=False)

    def position_of(self, offset: int) -> tuple[int, int]:
        """1-based (line, col) in the file of character ``offset`` of the string value."""
        if self._positions is None:
            self._positions = _align(self)
        if not self._positions:
            return (self.span.line, self.span.col)
        offset = max(0, min(offset, len(self._positions) - 1))
        return self._positions[offset]


@dataclass(slots=True)
class Mapping(Node):
    items: list[tuple[Scalar, Node]]

    def get(self, key: str) -> Node | None:
        for k, v in self.items:
            if k.value == key:
                return v
        return None

    def key_node(self, key: str) -> Scalar | None:
        for k, _ in self.items:
            if k.value == key:
                return k
        return None


@dataclass(slots=True)
class Sequence(Node):
    items: list[Node]


@dataclass(slots=True)
class Document:
    path: str
    text: str
    root: Node | None

    def data(self) -> Any:
        return to_data(self.root) if self.root is not None else None


def to_data(node: Node) -> Any:
    """Plain Python data (dict/list/str/int/float/bool/None) from a node tree."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Sequence):
        return [to_data(n) for n in node.items]
    if isinstance(node, Mapping):
        return {k.value: to_data(v) for k, v in node.items}
    raise TypeError(node)


def walk(node: Node | None, path: tuple) -> tuple[Node | None, int]:
    """Follow ``path`` (keys and indices) as far as the tree allows.

    Returns the deepest node reached and how many path segments it consumed;
    segments that do not match (e.g. pydantic's union tags) are skipped.
    """
    depth = 0
    for i, seg in enumerate(path):
        nxt = None
        if isinstance(node, Mapping) and isinstance(seg, str):
            nxt = node.get(seg)
        elif isinstance(node, Sequence) and isinstance(seg, int) and 0 <= seg < len(node.items):
            nxt = node.items[seg]
        if nxt is None:
            continue  # a segment with no YAML counterpart (union tag): skip it
        node, depth = nxt, i + 1
    return node, depth


# --------------------------------------------------------------------------- loading


_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")


def _plain_value(text: str) -> Any:
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT10.match(text):
        return int(text)
    if _INT8.match(text):
        return int(text[2:], 8)
    if _INT16.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


def _span(path: str, start, end) -> Span:
    return Span(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def read_text(path: Path, errors: ErrorBag, shown: str | None = None) -> str | None:
    """Read a content file as UTF-8, refusing files that are too large or not UTF-8."""
    shown = shown or str(path)
    try:
        size = path.stat().st_size
    except OSError:
        errors.add("E007", f"file not found: {shown}", Span(shown, 1, 1))
        return None
    if not path.is_file():
        errors.add("E007", f"not a file: {shown}", Span(shown, 1, 1))
        return None
    if size > MAX_FILE_BYTES:
        errors.add("E006", f"file is {size} bytes; content files are limited to {MAX_FILE_BYTES} bytes (5 MB)", Span(shown, 1, 1))
        return None
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # count lines at YAML's line breaks and columns in characters, not bytes,
        # so the caret lands under the bad byte
        before = data[: exc.start].decode("utf-8", errors="replace")
        breaks = list(_LINE_BREAK.finditer(before))
        line_start = breaks[-1].end() if breaks else 0
        errors.add("E005", f"invalid UTF-8 byte 0x{data[exc.start]:02x}", Span(shown, len(breaks) + 1, len(before) - line_start + 1))
        return None


# Parsed trees of files already loaded in this process, keyed by shown path and text, kept as
# pickled bytes: unpickling is an order of magnitude faster than parsing YAML again, and every
# caller gets a tree of its own to edit (overlays change trees in place). Only our own node
# objects are ever pickled here, in memory; nothing is read back from disk.
_TREE_CACHE: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_TREE_CACHE_SIZE = 512


def load_file(path: Path, errors: ErrorBag, shown: str | None = None) -> Document | None:
    text = read_text(path, errors, shown)
    if text is None:
        return None
    shown = shown or str(path)
    key = (shown, text)
    cached = _TREE_CACHE.get(key)
    if cached is not None:
        _TREE_CACHE.move_to_end(key)
        return pickle.loads(cached)
    before = len(errors)
    doc = load_text(text, shown, errors)
    if doc is not None and len(errors) == before:
        _TREE_CACHE[key] = pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
        if len(_TREE_CACHE) > _TREE_CACHE_SIZE:
            _TREE_CACHE.popitem(last=False)
    return doc


def load_text(text: str, path: str, errors: ErrorBag) -> Document | None:
    """Parse one YAML document into a node tree; report every problem found in ``errors``."""
    before = len(errors)
    builder = _Builder(path, text, errors)
    try:
        for event in YAML(typ="rt").parse(text):
            builder.feed(event)
    except _TooDeep:
        return None
    except MarkedYAMLError as exc:
        problem, mark = _explain(exc)
        span = Span(path, mark.line + 1, mark.column + 1) if mark is not None else Span(path, 1, 1)
        errors.add("E001", problem, span)
        return None
    except YAMLError as exc:  # reader errors (control characters) carry a position in their text
        errors.add("E001", _reader_message(exc), _reader_span(exc, path, text))
        return None
    if len(errors) > before:
        return None
    return Document(path, text, builder.root)


def _explain(exc: MarkedYAMLError):
    """A designer's message for a YAML syntax error, and the mark it should point at.

    ruamel reports where parsing stopped; for an unclosed quote or bracket the
    place to fix is where it was opened, so we point there and say where
    parsing stopped in the message.
    """
    problem = exc.problem or exc.context or "invalid YAML"
    context = exc.context or ""
    pm, cm = exc.problem_mark, exc.context_mark
    if "quoted scalar" in context and cm is not None:
        return "this quoted text is never closed: add the closing quote", cm
    if context.startswith("while parsing a flow") and cm is not None:
        what = "list `[`" if "sequence" in context else "mapping `{`"
        if pm is not None and pm.line > cm.line and ("got ':'" in problem or "<stream end>" in problem):
            return f"the {what} opened here is never closed ({problem} at line {pm.line + 1}, column {pm.column + 1})", cm
        return f"{problem}; inside a flow {what}, quote values that contain `,` `[` `]` `{{` or `}}`", pm or cm
    if problem.startswith("mapping values are not allowed"):
        return (f"{problem}: a `: ` inside a value starts a mapping; quote the value "
                "(e.g. \"may pay 1 brick: score 4\") or write it as a `|` block"), pm or cm
    if problem.startswith("found non-comment content after document end marker"):
        return "the `...` document end marker ends the YAML document: nothing but a comment may follow it on its line", pm or cm
    if "'\\t'" in problem:
        return "a tab character cannot indent YAML; indent with spaces", pm or cm
    if "expected <block end>" in problem or "expected <block mapping start>" in problem:
        return f"this line's indentation does not fit the block above it; align it with its siblings ({problem})", pm or cm
    return problem, pm or cm


def _reader_message(exc: YAMLError) -> str:
    text = str(exc).strip().splitlines()[0]
    return text.replace("unacceptable character", "character not allowed in YAML")


def _reader_span(exc: YAMLError, path: str, text: str) -> Span:
    m = re.search(r"line (\d+), column (\d+)", str(exc))
    if m:
        return Span(path, int(m.group(1)), int(m.group(2)))
    pos = getattr(exc, "position", None)
    if not isinstance(pos, int) or not 0 <= pos <= len(text):
        return Span(path, 1, 1)
    # the reader reports a character offset in the text; YAML's line breaks count lines
    breaks = list(_LINE_BREAK.finditer(text, 0, pos))
    line_start = breaks[-1].end() if breaks else 0
    return Span(path, len(breaks) + 1, pos - line_start + 1)


class _TooDeep(Exception):
    """Raised by the builder, after reporting it, at the first node nested deeper than MAX_DEPTH."""


class _Builder:
    """Builds Node trees from parser events, rejecting what content must not contain."""

    def __init__(self, path: str, text: str, errors: ErrorBag):
        self.path, self.text, self.errors = path, text, errors
        self.stack: list[tuple[Node, list]] = []
        self.root: Node | None = None
        self.documents = 0
        self.ended_at: int | None = None  # line of the last `...` document end marker

    def feed(self, e) -> None:
        if isinstance(e, ev.DocumentEndEvent):
            if e.explicit:
                self.ended_at = e.start_mark.line + 1
            return
        if isinstance(e, ev.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                if e.explicit or self.ended_at is None:
                    message = "a content file holds exactly one YAML document; remove the `---` separator"
                else:  # no `---`: the text goes on after a `...` document end marker
                    message = (f"the `...` on line {self.ended_at} ends the YAML document, so nothing but comments "
                               "may follow it; remove the `...` line (or what follows it)")
                self.errors.add("E001", message, _span(self.path, e.start_mark, e.end_mark))
            return
        if isinstance(e, ev.AliasEvent):
            self.errors.add("E004", f"alias '*{e.anchor}' is not allowed in content", _span(self.path, e.start_mark, e.end_mark))
            self._attach(Scalar(_span(self.path, e.start_mark, e.end_mark), None, None))
            return
        if isinstance(e, (ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent)):
            span = _span(self.path, e.start_mark, e.end_mark)
            if e.tag is not None:
                shown = self.text[e.start_mark.index:].split(None, 1)[0] if self.text[e.start_mark.index:e.start_mark.index + 1] == "!" else str(e.tag)
                self.errors.add("E002", f"YAML tag '{shown}' is not allowed; content is plain data and is never constructed", span)
            if e.anchor is not None:
                self.errors.add("E004", f"anchor '&{e.anchor}' is not allowed in content", span)
        if isinstance(e, (ev.MappingStartEvent, ev.SequenceStartEvent)) and len(self.stack) == MAX_DEPTH:
            self.errors.add("E001", f"mappings and lists are nested more than {MAX_DEPTH} levels deep",
                            _span(self.path, e.start_mark, e.end_mark))
            # stop here: the scanner's work per token grows with every open flow level, so
            # parsing on through thousands of `[` would take minutes (and report nothing new)
            raise _TooDeep
        if isinstance(e, ev.ScalarEvent):
            style = e.style or None
            value = _plain_value(e.value) if style is None else e.value
            raw = self.text[e.start_mark.index : e.end_mark.index]
            span = _span(self.path, e.start_mark, e.end_mark)
            if style is None and raw == "":
                span = self._empty_value_span(span)
            self._attach(Scalar(span, value, style, raw))
        elif isinstance(e, ev.MappingStartEvent):
            self.stack.append((Mapping(_span(self.path, e.start_mark, e.end_mark), []), []))
        elif isinstance(e, ev.SequenceStartEvent):
            self.stack.append((Sequence(_span(self.path, e.start_mark, e.end_mark), []), []))
        elif isinstance(e, (ev.MappingEndEvent, ev.SequenceEndEvent)):
            node, pending = self.stack.pop()
            node.span = Span(node.span.path, node.span.line, node.span.col, e.end_mark.line + 1, e.end_mark.column + 1)
            if isinstance(node, Mapping):
                self._close_mapping(node, pending)
            else:
                node.items = pending
            self._attach(node)

    def _empty_value_span(self, span: Span) -> Span:
        """An empty value (`key:` and nothing after it) is placed right after its key.

        The parser marks it where the next token starts, often on a later line.
        """
        if self.stack and isinstance(self.stack[-1][0], Mapping) and len(self.stack[-1][1]) % 2 == 1:
            key = self.stack[-1][1][-1]
            if key.span.end_line is not None and key.span.end_col is not None:
                return Span(span.path, key.span.end_line, key.span.end_col)
        return span

    def _attach(self, node: Node) -> None:
        if not self.stack:
            if self.root is None:
                self.root = node
            return
        self.stack[-1][1].append(node)

    def _close_mapping(self, node: Mapping, pending: list[Node]) -> None:
        seen: dict[Any, Scalar] = {}
        for key, value in zip(pending[0::2], pending[1::2]):
            if not isinstance(key, Scalar):
                self.errors.add("E009", "a mapping key must be a plain word, not a list or mapping", key.span)
                continue
            if not isinstance(key.value, str):
                self.errors.add("E009", f"mapping key {key.raw!r} is not a string; quote it or use a word", key.span)
                continue
            if key.value in seen:
                first = seen[key.value].span
                self.errors.add("E003", f"duplicate key '{key.value}' (first defined at line {first.line})", key.span)
                continue
            seen[key.value] = key
            node.items.append((key, value))


# --------------------------------------------------------------------------- string positions


# Escapes of double-quoted YAML scalars: the character each one stands for.
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_INDENTED = re.compile(r"( *)\S")  # a line with text, and its indentation


def _units(s: Scalar) -> list[tuple[str, int, int]]:
    """The source characters that can carry a character of the value, with their (line, col).

    Drops what never reaches the value (a block scalar's header and indentation)
    and turns each escape of a quoted scalar into the one character it stands for,
    placed on its backslash (or on the first quote of a doubled ``''``).
    """
    raw, style = s.raw, s.style
    line, col = s.span.line, s.span.col
    units: list[tuple[str, int, int]] = []
    i = 0
    indent = None
    if style in ("|", ">"):
        header_end = _LINE_BREAK.search(raw)
        if header_end is None:
            return []
        i, line, col = header_end.end(), line + 1, 1
        # the content's indentation is that of its first non-blank line
        first = next((m for m in map(_INDENTED.match, _LINE_BREAK.split(raw[i:])) if m), None)
        explicit = re.match(r"[|>][-+]?([1-9])|[|>]([1-9])", raw)
        indent = int(explicit.group(1) or explicit.group(2)) if explicit else (len(first.group(1)) if first else 0)
    elif style in ("'", '"'):
        i, col = 1, col + 1  # the opening quote

    def skip(n: int) -> None:
        nonlocal i, line, col
        for k in range(i, min(i + n, len(raw))):
            ch = raw[k]
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and raw[k + 1 : k + 2] != "\n"):
                line, col = line + 1, 1
            else:
                col += 1
        i += n

    at_line_start = indent is not None
    while i < len(raw):
        if at_line_start:
            n = 0
            while n < indent and i + n < len(raw) and raw[i + n] == " ":
                n += 1
            skip(n)
            at_line_start = False
            continue
        r = raw[i]
        if r in _BREAK_CHARS:  # one line break (\r\n counts once), as the value holds it
            units.append(("\n" if r in "\r\n\x85" else r, line, col))
            skip(2 if raw[i : i + 2] == "\r\n" else 1)
            at_line_start = indent is not None
            continue
        if style == '"' and r == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt in _BREAK_CHARS:  # escaped line break: joins the lines, produces nothing
                n = 2 + (nxt == "\r" and raw[i + 2 : i + 3] == "\n")
                while i + n < len(raw) and raw[i + n] in " \t":
                    n += 1
                skip(n)
                continue
            if nxt in _HEX_ESCAPES:
                width = _HEX_ESCAPES[nxt]
                try:
                    units.append((chr(int(raw[i + 2 : i + 2 + width], 16)), line, col))
                except ValueError:
                    units.append((r, line, col))
                    skip(1)
                    continue
                skip(2 + width)
                continue
            if nxt in _ESCAPES:
                units.append((_ESCAPES[nxt], line, col))
                skip(2)
                continue
        if style == "'" and r == "'" and raw[i + 1 : i + 2] == "'":
            units.append(("'", line, col))
            skip(2)
            continue
        units.append((r, line, col))
        skip(1)
    units.append(("", line, col))  # one position past the end
    return units


def _align(s: Scalar) -> list[tuple[int, int]]:
    """Map each character of a string scalar's value to its (line, col) in the file.

    Greedy alignment of the value against the source units of the scalar
    (``_units``): quotes, escapes, block indicators and indentation are accounted
    for, so positions are exact for plain, quoted and literal scalars on the
    characters that matter for error messages (anything but folded whitespace).
    A value character with no source counterpart takes the position of the
    next unit rather than skipping ahead.
    """
    value = s.value if isinstance(s.value, str) else str(s.value)
    units = _units(s)
    if not units:
        return []
    out: list[tuple[int, int]] = []
    k = 0
    last = len(units) - 1  # the past-the-end unit
    for v in value:
        j = k
        while j < last and units[j][0] != v:
            j += 1
        if j < last:
            out.append(units[j][1:])
            k = j + 1
        else:
            out.append(units[min(k, last)][1:])
    # one position past the end, for "unexpected end" errors
    out.append(units[min(k, last)][1:] if k < last else units[last][1:])
    return out


def iter_scalars(node: Node | None) -> Iterator[Scalar]:
    if isinstance(node, Scalar):
        yield node
    elif isinstance(node, Sequence):
        for n in node.items:
            yield from iter_scalars(n)
    elif isinstance(node, Mapping):
        for k, v in node.items:
            yield k
            yield from iter_scalars(v)
