"""Where bundled data lives, in a source checkout and in an installed wheel."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def _bundled(name: str) -> Path:
    # An installed wheel carries the data inside the package (see pyproject.toml);
    # a source checkout or editable install reads it from the repository root.
    inside = _PACKAGE / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def bundled_content() -> Path:
    return _bundled("content")


def bundled_schemas() -> Path:
    return _bundled("schemas")


DEFAULT_PACK_FILE = "default_pack"  # in the bundled content folder: the folder name of the default pack


def default_pack() -> Path:
    """The pack commands use when none is named: $CAPUT_PACK, else the bundled default pack."""
    named = os.environ.get("CAPUT_PACK")
    if named:
        return Path(named)
    return bundled_default_pack()


def bundled_default_pack() -> Path:
    """The bundled pack the content folder's `default_pack` file names, else the first bundled pack."""
    content = bundled_content()
    marker = content / DEFAULT_PACK_FILE
    if marker.is_file():
        chosen = content / marker.read_text(encoding="utf-8").strip()
        if (chosen / "pack.yaml").is_file():
            return chosen
    packs = sorted(p.parent for p in content.glob("*/pack.yaml"))
    return packs[0] if packs else content


def display_path(path: Path) -> str:
    """A path as users should see it: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(Path(path).resolve()) if rel.startswith("..") else rel
