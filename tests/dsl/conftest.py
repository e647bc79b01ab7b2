"""Shared fixtures for the DSL tests: the bundled pack, loaded once."""

from __future__ import annotations

from functools import lru_cache

import pytest

from interpreter.content.ruleset import load_ruleset


@lru_cache(maxsize=1)
def _ruleset():
    return load_ruleset()


@pytest.fixture(scope="session")
def ruleset():
    return _ruleset()


@pytest.fixture(scope="session")
def symbols(ruleset):
    return ruleset.symbols
