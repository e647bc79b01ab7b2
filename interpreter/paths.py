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


def default_pack() -> Path:
    """The pack commands use when none is named: $CAPUT_PACK, else the first bundled pack."""
    named = os.environ.get("CAPUT_PACK")
    if named:
        return Path(named)
    packs = sorted(p.parent for p in bundled_content().glob("*/pack.yaml"))
    return packs[0] if packs else bundled_content()


def display_path(path: Path) -> str:
    """A path as users should see it: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(Path(path).resolve()) if rel.startswith("..") else rel
