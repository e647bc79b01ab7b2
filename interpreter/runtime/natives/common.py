"""Shared pieces of the native frames: frame keys, payments, pushing programs, queued events."""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime import ledger
from interpreter.runtime.state import Decision, Frame, GameState

PERFORM, BUILD, MOVE, AREA, SLOT, BONUS, PICK_HALF = ("@perform", "@build", "@move", "@area", "@slot",
                                                        "@bonus", "@half")


# --------------------------------------------------------------------------- helpers

def _amounts(m, state, frame, key, less: dict | None = None) -> list[tuple[str, int]]:
    """Evaluate a compiled amounts key, less a discount (never below zero)."""
    amounts = m.tables.programs[key]
    values = m.constant(amounts)
    if values is None:
        view = m._view(state, frame)
        values = [(r, fn(view, None)) for r, fn in amounts]
    if not less:
        return [(r, n) for r, n in values if n > 0]
    return [(r, n - less.get(r, 0)) for r, n in values if n - less.get(r, 0) > 0]


def can_afford(player, amounts) -> bool:
    need: dict[str, int] = {}
    for r, n in amounts:
        need[r] = need.get(r, 0) + n
    return all(player.holdings.get(r, 0) >= n for r, n in need.items())


def pay(state, player, amounts, what: str) -> None:
    if not can_afford(player, amounts):
        raise RulesError(f"player {player.seat + 1} cannot pay {_text(amounts)} for {what}")
    for r, n in amounts:
        player.holdings[r] -= n
        ledger.note(state, player.seat, r, -n, what)


def _text(amounts) -> str:
    return ", ".join(f"{n} {r}" for r, n in amounts) or "nothing"


def _push(state: GameState, frames: list[Frame]) -> None:
    """Push frames so that they run in list order."""
    state.frames.extend(reversed(frames))


def _prog(m, key, player, source, this=None, event=None) -> Frame:
    return Frame(key, [], 0, player, source, list(this) if this else None, event)


def top_of(player, hex_key: str):
    stack = player.area.get(hex_key)
    return tuple(stack[-1]) if stack else None


def _mods(m, state, frame, mods) -> dict:
    """Modifiers of `perform`/`build`/`move` as plain data: a discount, `free`, permits."""
    out: dict = {}
    if not mods:
        return out
    view = m._view(state, frame)
    for mod in mods:
        kind = type(mod)
        if kind is S.Free:
            out["free"] = True
        elif kind is S.Discount:
            d = out.setdefault("discount", {})
            for r, fn in mod.amounts:
                d[r] = d.get(r, 0) + fn(view, None)
        elif kind is S.With:
            out.setdefault("with", []).append(mod.permit)
    return out


# --------------------------------------------------------------------------- queued events

EMIT = "@emit"


def emit_step(m, state, frame) -> None:
    state.frames.pop()
    m.emit(state, frame.player, frame.event["event"], frame.event["params"])
