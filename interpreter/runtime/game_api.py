"""What every game of every pack shares of the Game API (OpenSpiel-shaped): who acts, the legal
actions worked out once per state, and applying an action as a transaction. A game supplies
``_legal_actions``, ``_applied`` (the state after an action, on a copy; IllegalActionError if the
rules refuse it), ``_why_not`` and ``is_terminal``."""

from __future__ import annotations

from interpreter.errors import IllegalActionError, RulesError
from interpreter.runtime import ledger
from interpreter.runtime.state import GameState


class GameAPI:
    def __init__(self, rules, state: GameState):
        self.rules, self.state = rules, state
        self._legal: tuple[GameState, int, list[str]] | None = None  # legal actions of the current state
        self._tried: dict[str, GameState] = {}  # action -> the state it led to while checking it (reused by apply)

    def invalidate(self) -> None:
        """Forget cached legal actions; call after editing ``state`` by hand (scenario setups do)."""
        self._legal = None
        self._tried = {}

    def seek_turn(self, turn: int) -> None:
        """Stand the flow at the start of turn ``turn`` (from 1, every seat's turns counted), for a state
        set up by hand: the seat whose turn it is acts, and the flow goes on from there."""
        from interpreter.runtime import flow as F

        if self.state.flow is None:
            raise RulesError("the game has no flow to stand at a turn")
        if turn < 1:
            raise RulesError(f"turns are numbered from 1, not {turn}")
        cursor = F.seek(self.rules.flow, len(self.state.players), turn - 1)
        self.state.flow, self.state.turn, self.state.current = cursor, turn, cursor.seat
        self.invalidate()

    @property
    def current_player(self) -> int:
        """Seat index (0-based) of the player who acts next; -1 when the game is over."""
        if self.is_terminal():
            return -1
        if self.state.decision is not None:
            return self.state.decision.player
        return self.state.current

    def legal_actions(self) -> list[str]:
        return list(self._legal_now())  # the caller's own list

    def _legal_now(self) -> list[str]:
        """The legal actions of the current state, worked out once (not to be changed)."""
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == len(self.state.log):
            return cached[2]
        self._tried = {}
        legal = self._legal_actions()
        self._legal = (self.state, len(self.state.log), legal)
        return legal

    def apply(self, action: str) -> None:
        """Apply one action as a transaction: on any rules violation nothing changes."""
        legal = self._legal_now()
        if action not in legal:
            raise IllegalActionError(action, self._why_not(action, legal))
        # checked ones were applied to a copy, untraced: worked out afresh while the machine traces programs
        tried = self._tried.pop(action, None) if self.rules.machine.trace is None else None
        work = tried or self._applied(action)
        work.log.append(action)
        self.state = work
        self._tried = {}

    def apply_recorded(self, action: str) -> list[ledger.Entry]:
        """``apply``, and the payments and gains the action made, in order (ledger.Entry): the action is worked
        out afresh under a recorder, not taken from the copy the legality check left (which ran unrecorded)."""
        if action in self._legal_now():  # worked out first: `apply` would otherwise fill `_tried` again
            self._tried.pop(action, None)
        with ledger.recording() as entries:
            self.apply(action)
        return [e for e in entries if e.state == id(self.state)]

    def child(self, action: str):
        """The game after an action taken from ``legal_actions()``, leaving this one as it is. For search:
        it skips re-checking that the action is legal (an action that fails still raises)."""
        work = self._applied(action)
        work.log.append(action)
        return type(self)(self.rules, work)

    def clone(self):
        return type(self)(self.rules, self.state.clone())

    def _why_not(self, action: str, legal: list[str]) -> str:
        return "not among the legal actions now: " + ", ".join(legal[:12])
