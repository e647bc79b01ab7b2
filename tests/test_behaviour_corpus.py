"""Replay the behaviour corpus (tests/corpus/, recorded by tools/record_corpus.py).

Each corpus file is one bot game. The replay rebuilds the game from the file's header and, at every
step, checks the seat to move, the number and the digest of the legal actions (and the whole list
where the file has it) before applying the recorded action; at the end it checks the scores with
their breakdowns, the winner, the turns and the solo verdict. No bot runs here: a change to how
the engine plays shows up at the first step where the legal actions or the outcome differ.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from interpreter import IllegalActionError, default_pack, load_ruleset, new_game

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*.txt"))


@dataclass
class Step:
    seat: int
    count: int
    digest: str
    action: str
    legal: list[str] | None = None  # every legal action, in the games that list them


@dataclass
class Recorded:
    header: dict[str, str]
    steps: list[Step] = field(default_factory=list)
    scores: list[dict] = field(default_factory=list)
    end: dict[str, object] = field(default_factory=dict)  # winner, turns, solo


def digest(legal: list[str]) -> str:
    return hashlib.sha1("\n".join(sorted(legal)).encode()).hexdigest()[:10]


def parse(path: Path) -> Recorded:
    rec = Recorded({})
    full = False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            rec.header[key] = value
            full = rec.header.get("full") == "yes"
        elif line.startswith("  = "):
            assert full and rec.steps, f"{path.name}:{n}: a legal-action line outside a full-list step"
            rec.steps[-1].legal.append(line[4:])
        elif line.startswith("score "):
            rec.scores.append(json.loads(line[6:]))
        elif line.startswith(("winner ", "turns ", "solo ")):
            key, _, value = line.partition(" ")
            rec.end[key] = json.loads(value)
        else:
            seat, count, dig, action = line.split(" ", 3)
            rec.steps.append(Step(int(seat), int(count), dig, action, [] if full else None))
    return rec


def score_changes(now: list[dict], recorded: list[dict]) -> str:
    """What differs, seat by seat: the totals and the breakdown entries (now / recorded)."""
    if len(now) != len(recorded):
        return f"{len(now)} scored seats, recorded {len(recorded)}"
    out = []
    for a, b in zip(now, recorded):
        parts = [f"{k} {a.get(k)}/{b.get(k)}" for k in ("seat", "score") if a.get(k) != b.get(k)]
        ka, kb = a.get("breakdown", {}), b.get("breakdown", {})
        parts += [f"{k} {ka.get(k)}/{kb.get(k)}" for k in sorted(set(ka) | set(kb)) if ka.get(k) != kb.get(k)]
        if parts:
            out.append(f"seat {b.get('seat')}: " + ", ".join(parts))
    return "; ".join(out) + " (now/recorded)"


@pytest.fixture(scope="module")
def rulesets():
    """One ruleset per variant set, loaded the first time a corpus game needs it."""
    cache: dict[tuple[str, ...], object] = {}

    def get(variants: tuple[str, ...]):
        if variants not in cache:
            cache[variants] = load_ruleset(default_pack(), variants)
        return cache[variants]

    return get


def test_the_corpus_is_there():
    assert len(FILES) == 48, f"expected the 48 games of tools/record_corpus.py in {CORPUS}, found {len(FILES)}"
    assert sum(parse(p).header.get("full") == "yes" for p in FILES) == 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_engine_plays_the_recorded_game(rulesets, time_limit, path):
    rec = parse(path)
    h, name = rec.header, path.name
    rs = rulesets(tuple(json.loads(h["variants"])))
    assert rs.pack_id == h["pack"], f"{name}: recorded with pack {h['pack']!r}, the default pack is {rs.pack_id!r}"
    with time_limit(120):
        game = new_game(rs, int(h["players"]), seed=int(h["seed"]))
        for i, step in enumerate(rec.steps, 1):
            where = f"{name} step {i} ({step.action!r})"
            assert not game.is_terminal(), f"{where}: the game is over already after {i - 1} steps"
            legal = sorted(game.legal_actions())
            assert game.current_player == step.seat, \
                f"{where}: seat {game.current_player} to move, recorded seat {step.seat}"
            if step.legal is not None:
                missing, extra = sorted(set(step.legal) - set(legal)), sorted(set(legal) - set(step.legal))
                assert legal == step.legal, \
                    f"{where}: legal actions differ; no longer legal: {missing}; newly legal: {extra}"
            assert (len(legal), digest(legal)) == (step.count, step.digest), (
                f"{where}: {len(legal)} legal actions (digest {digest(legal)}), recorded {step.count} "
                f"(digest {step.digest}); now legal: {legal[:20]}{' ...' if len(legal) > 20 else ''}")
            try:
                game.apply(step.action)
            except IllegalActionError as exc:
                pytest.fail(f"{where}: the recorded action is refused: {exc}")
        assert game.is_terminal(), f"{name}: the game is not over after the {len(rec.steps)} recorded steps"
        assert game.scores() == rec.scores, f"{name}: scores differ: {score_changes(game.scores(), rec.scores)}"
        assert game.winner() == rec.end["winner"], f"{name}: winner {game.winner()}, recorded {rec.end['winner']}"
        assert game.state.turn == rec.end["turns"], f"{name}: {game.state.turn} turns, recorded {rec.end['turns']}"
        assert game.solo_verdict() == rec.end["solo"], \
            f"{name}: solo verdict {game.solo_verdict()}, recorded {rec.end['solo']}"
