"""Content models: values are never coerced to another type, and counts are never negative.

Every number and yes/no value of the bundled pack is swapped, one at a time, for a
value of the wrong type (`true` for a number, `1` for a yes/no): the model must
refuse it at that very place, whatever the kind and field.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from pydantic import ValidationError

from interpreter.errors import ErrorBag
from interpreter.content.declared import read_kinds
from interpreter.content.pack import load_pack
from interpreter.content.source import load_file

PACK = Path(__file__).resolve().parents[2] / "content" / "praga"
# the file models of the bundled pack: the built-in kinds and those its record kinds declare
KINDS = read_kinds(load_pack(PACK, ErrorBag()), ErrorBag()).files
FILES = sorted(p for p in PACK.glob("*.yaml"))
PER_FILE = 60  # values tried per file, spread over it


def _data(path: Path):
    errors = ErrorBag()
    doc = load_file(path, errors)
    assert doc is not None and not errors
    return doc.data()


def _scalars(data, path=()):
    """(path, value) of every scalar, in document order."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _scalars(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _scalars(v, (*path, i))
    else:
        yield path, data


def _set(data, path, value):
    data = copy.deepcopy(data)
    target = data
    for seg in path[:-1]:
        target = target[seg]
    target[path[-1]] = value
    return data


def _spread(items: list, n: int) -> list:
    return items if len(items) <= n else [items[i * len(items) // n] for i in range(n)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_value_of_the_wrong_type_is_refused_where_it_is(path):
    data = _data(path)
    model = KINDS[data["kind"]]
    model.model_validate(data)  # the file itself is valid
    # a declared field's `default:` may be of any type: the declarations check it against the field (E214)
    scalars = [(p, v) for p, v in _scalars(data) if "default" not in p]
    swaps = [(p, True) for p, v in scalars if type(v) in (int, float)]
    swaps += [(p, 1) for p, v in scalars if type(v) is bool]
    for where, wrong in _spread(swaps, PER_FILE):
        with pytest.raises(ValidationError) as info:
            model.model_validate(_set(data, where, wrong))
        locs = [tuple(e["loc"]) for e in info.value.errors()]
        assert where in locs, (where, wrong, locs)


def test_every_file_has_numbers_to_swap():
    assert sum(type(v) in (int, float) for f in FILES for _, v in _scalars(_data(f))) > 100


def test_an_int_is_still_a_valid_float():
    data = _data(PACK / "bots.yaml")
    assert isinstance(data["evaluations"][0]["opponents"], (int, float))
    KINDS["bots"].model_validate(_set(data, ("evaluations", 0, "opponents"), 2))


@pytest.mark.parametrize("file, where", [
    ("setup.yaml", ("free_pieces", "cube")),
    ("setup.yaml", ("carry_limit",)),
    ("city.yaml", ("hexes", "route_space")),
    ("projects.yaml", ("grids", 0, "start", 0)),
    ("projects.yaml", ("grids", 0, "tier_sets", 0, "tiers", 0, "rows", 0, "cols", 0)),
])
def test_a_count_is_never_negative(file, where):
    data = _data(PACK / file)
    if where[:2] == ("hexes", "route_space"):  # the first road hex
        i = next(i for i, h in enumerate(data["hexes"]) if "route_space" in h)
        where = ("hexes", i, "route_space")
    KINDS[data["kind"]].model_validate(data)
    with pytest.raises(ValidationError) as info:
        KINDS[data["kind"]].model_validate(_set(data, where, -1))
    assert [tuple(e["loc"]) for e in info.value.errors()] == [where]
