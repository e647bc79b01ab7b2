"""Find and load the files of a content pack (phase 1: load)."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.errors import ErrorBag, Span
from interpreter.paths import bundled_content, display_path
from interpreter.content.source import Document, Mapping, Scalar, Sequence, load_file

PACK_FILE = "pack.yaml"


@dataclass
class PackSource:
    """The documents of a pack, as node trees (overlays edit these before validation)."""

    root: Path
    manifest: Document
    documents: list[Document] = field(default_factory=list)  # included files, in include order
    kinds: object = None  # the pack's KindTable, read from its record kind declarations before overlays apply

    def all(self) -> list[Document]:
        return [self.manifest, *self.documents]

    def of_kind(self, kind: str) -> list[Document]:
        return [d for d in self.all() if kind_of(d) == kind]


def kind_of(doc: Document) -> str | None:
    if isinstance(doc.root, Mapping):
        node = doc.root.get("kind")
        if isinstance(node, Scalar) and isinstance(node.value, str):
            return node.value
    return None


def find_pack_dir(path: Path) -> Path | None:
    """The pack directory for a path: itself, or the nearest parent holding pack.yaml."""
    path = path.resolve()
    if path.is_file() and path.name == PACK_FILE:
        return path.parent
    for candidate in [path, *path.parents] if path.is_dir() else list(path.parents):
        if (candidate / PACK_FILE).is_file():
            return candidate
    return None


def bundled_pack(pack_id: str) -> Path | None:
    candidate = bundled_content() / pack_id
    return candidate if (candidate / PACK_FILE).is_file() else None


def load_pack(pack_dir: Path, errors: ErrorBag, manifest_path: Path | None = None) -> PackSource | None:
    """Load the manifest (pack.yaml unless named) and every file it includes; report missing or broken files."""
    manifest_path = manifest_path or pack_dir / PACK_FILE
    manifest = load_file(manifest_path, errors, display_path(manifest_path))
    if manifest is None:
        return None
    source = PackSource(pack_dir, manifest)
    include = manifest.root.get("include") if isinstance(manifest.root, Mapping) else None
    if not isinstance(include, Sequence):
        return source  # the schema phase reports the missing or malformed include list
    seen: set[Path] = set()
    folder = pack_dir.resolve()
    for item in include.items:
        if not isinstance(item, Scalar) or not isinstance(item.value, str):
            continue
        target = (folder / item.value).resolve()
        if not target.is_relative_to(folder):
            # a pack reads only its own files (never by an absolute path, `..` or a link out):
            # so a pack cannot pull a file from elsewhere on the disk, nor echo its lines in errors
            how = "links to a file" if Path(os.path.normpath(folder / item.value)).is_relative_to(folder) else "is"
            errors.add("E010", f"'{item.value}' {how} outside the pack's folder; a pack includes only files "
                       "inside its own folder", item.span)
            continue
        if target in seen:
            errors.add("E003", f"'{item.value}' is included twice", item.span)
            continue
        seen.add(target)
        if not target.is_file():
            errors.add("E007", f"included file not found: {item.value}{_suggest_file(pack_dir, item.value)}", item.span)
            continue
        doc = load_file(target, errors, display_path(target))
        if doc is not None:
            source.documents.append(doc)
    return source


def _suggest_file(pack_dir: Path, name: str) -> str:
    """"; did you mean 'x'?" for a missing include close to an existing file's name."""
    target = pack_dir / name
    try:
        siblings = sorted(p.name for p in target.parent.iterdir() if p.is_file())
    except OSError:
        return ""
    close = difflib.get_close_matches(target.name, siblings, n=1)
    return f"; did you mean '{Path(name).with_name(close[0]).as_posix()}'?" if close else ""


def file_span(path: Path) -> Span:
    return Span(display_path(path), 1, 1)
