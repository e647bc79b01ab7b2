"""caput: a data-driven rules interpreter for euro board games.

The public API, importable from here::

    from interpreter import load_ruleset, new_game, IllegalActionError

    ruleset = load_ruleset()              # the bundled pack; or a folder, with variants=(...)
    game = new_game(ruleset, players=2, seed=7)
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])

The layers are packages: ``content`` (YAML to a frozen Ruleset), ``dsl`` (the effect language),
``runtime`` (state, the game API, the effect machine, mechanisms), ``play`` (bots, simulation,
scenarios, saves), ``ui`` (command line, terminal, web) and ``authoring`` (the guide). Names are
resolved on first use so that importing one layer does not import the others.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "load_ruleset": "interpreter.content.ruleset",
    "validate": "interpreter.content.ruleset",
    "Ruleset": "interpreter.content.ruleset",
    "new_game": "interpreter.runtime.game",
    "Game": "interpreter.runtime.game",
    "make_bot": "interpreter.play.bots",
    "ContentError": "interpreter.errors",
    "IllegalActionError": "interpreter.errors",
    "RulesError": "interpreter.errors",
    "default_pack": "interpreter.paths",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
