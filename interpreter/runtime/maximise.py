"""Answer the decisions of an automatic phase so that each deciding player scores the most.

Final scoring has optional conversions ("may pay 1 brick: score 2", repeated as often as the
player likes). Answering every one with its first option converts as far as the first conversion
goes and can starve a better one later (OPEN-42: the automatic default maximises points). Since each
conversion is optional, any split of the holdings between conversions is reachable whatever order
they run in, so a search over the answers finds the best split.

The search is a depth-first walk of the decision tree, memoised on what the rest of the run can
depend on (frames, the decision, every player's state but their score, the shared table), so
positions reached along different paths (2 brick then 1 pair, or 1 pair then 2 brick) are valued once.
A position's value is the points each player still gains from it; each decision takes the option
best for the player who makes it, ties going to the earlier option.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.runtime.state import GameState

MAX_DEPTH = 200  # decisions in a row; past it, every decision takes its last option (stop, decline)
MAX_NODES = 20_000  # positions valued per call; past it, the rest take their first option


@dataclass
class _Search:
    machine: object
    root: GameState
    memo: dict = field(default_factory=dict)
    nodes: int = 0

    def key(self, st: GameState) -> tuple:
        d = st.decision
        frames = tuple((f.key, tuple(f.addr), f.pc, f.player, f.source, tuple(f.this or ()), repr(f.event),
                        f.trigger, f.remaining) for f in st.frames)
        players = tuple((tuple(sorted(p.holdings.items())), tuple(sorted(p.tracks.items())),
                         repr(sorted(p.grids.items())), repr(sorted(p.owned.items())),
                         repr(sorted(p.track_tokens.items())), tuple(sorted(p.pieces_free.items())),
                         tuple(p.milestones), tuple(p.permits)) for p in st.players)
        # table values are replaced, never changed in place: one still shared with the root is unchanged
        root_table = self.root.table
        table = tuple((k, None if root_table.get(k) is v else repr(v)) for k, v in sorted(st.table.items()))
        return (frames, (d.player, d.kind, tuple(d.options), repr(sorted(d.data.items()))), players, table,
                tuple(st.flags), repr(st.expiring))

    def value(self, st: GameState, depth: int) -> tuple[tuple[int, ...], int]:
        """(points each player still gains, best option) for a state waiting on a decision."""
        key = self.key(st)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        d = st.decision
        if depth >= MAX_DEPTH:
            best = (self.gains(st, len(d.options) - 1, depth), len(d.options) - 1)
        elif self.nodes >= MAX_NODES:
            best = (self.gains(st, 0, depth), 0)
        else:
            self.nodes += 1
            best = None
            for i in range(len(d.options)):
                gains = self.gains(st, i, depth)
                if best is None or gains[d.player] > best[0][d.player]:
                    best = (gains, i)
        self.memo[key] = best
        return best

    def gains(self, st: GameState, index: int, depth: int) -> tuple[int, ...]:
        child = st.clone()
        self.machine.answer(child, index)
        now = tuple(p.score - q.score for p, q in zip(child.players, st.players))
        if child.decision is None:
            return now
        later, _ = self.value(child, depth + 1)
        return tuple(a + b for a, b in zip(now, later))


def answer_best(machine, state: GameState) -> None:
    """Answer every pending decision of ``state`` in place, each as the search found best, until
    the machine runs out of frames."""
    search = _Search(machine, state.clone())
    depth = 0
    while state.decision is not None:
        _, best = search.value(state, depth)
        machine.answer(state, best)
        depth += 1
