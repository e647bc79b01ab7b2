"""What simulated games say: per-seat scores, win rates with intervals, where points come from,
what gets picked, what never happens; and paired comparisons of a base game with a variant.

Works on the records of ``simulate.play_game``; plots use matplotlib's Agg backend (files only).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

from interpreter.play import stats


def summarize(records: list[dict], content_keys: dict[str, str] | None = None) -> dict:
    """Per seat: mean, sd and 95% interval of scores, win rate with its Wilson interval; per bot the
    same; mean points per source; per-game rates of actions, tiles and wheel tiles; content never fired.

    ``content_keys`` maps every program key of the pack to the content id it belongs to."""
    n = len(records)
    seats = max((len(r["scores"]) for r in records), default=0)
    per_seat = []
    for i in range(seats):
        xs = [r["scores"][i] for r in records if len(r["scores"]) > i]
        mean, low, high = stats.mean_ci(xs)
        wins = sum(1 for r in records if r["winner"] == i + 1)
        p, wlow, whigh = stats.wilson(wins, n)
        per_seat.append({"seat": i + 1, "bot": records[0]["bots"][i] if records else "", "mean": mean,
                         "sd": stats.mean_sd(xs)[1], "low": low, "high": high, "wins": wins, "win_rate": p,
                         "win_low": wlow, "win_high": whigh})
    by_bot: dict[str, list[int]] = defaultdict(list)
    bot_wins: Counter = Counter()
    bot_games: Counter = Counter()
    bot_seconds: Counter = Counter()
    bot_moves: Counter = Counter()
    bot_slowest: dict[str, float] = defaultdict(float)
    for r in records:
        for i, score in enumerate(r["scores"]):
            by_bot[r["bots"][i]].append(score)
            bot_games[r["bots"][i]] += 1
        if r["winner"]:
            bot_wins[r["bots"][r["winner"] - 1]] += 1
        timing = r.get("timing")  # records written before bots were timed have none
        for i, bot in enumerate(r["bots"] if timing else ()):
            bot_seconds[bot] += timing["seconds"][i]
            bot_moves[bot] += timing["moves"][i]
            bot_slowest[bot] = max(bot_slowest[bot], timing["slowest"][i])
    bots = []
    for bot, xs in sorted(by_bot.items()):
        mean, low, high = stats.mean_ci(xs)
        p, wlow, whigh = stats.wilson(bot_wins[bot], bot_games[bot])
        bots.append({"bot": bot, "seats": bot_games[bot], "mean": mean, "low": low, "high": high,
                     "wins": bot_wins[bot], "win_rate": p, "win_low": wlow, "win_high": whigh,
                     "moves": bot_moves[bot],
                     "ms_per_move": 1000 * bot_seconds[bot] / bot_moves[bot] if bot_moves[bot] else None,
                     "slowest_ms": 1000 * bot_slowest[bot] if bot_moves[bot] else None})
    sources: Counter = Counter()
    for r in records:
        for b in r["breakdown"]:
            sources.update(b)
    scoring_seats = sum(len(r["scores"]) for r in records) or 1
    fired = set().union(*(r["fired"] for r in records)) if records else set()
    never = sorted({cid for key, cid in (content_keys or {}).items()} -
                   {cid for key, cid in (content_keys or {}).items() if key in fired})
    return {
        "games": n,
        "seats": per_seat,
        "balance": seat_balance(records),
        "ladder": solo_ladder(records),
        "bots": bots,
        "sources": {k: v / scoring_seats for k, v in sorted(sources.items(), key=lambda kv: -kv[1])},
        "performed": _rates(records, "performed"),
        "tiles": _rates(records, "tiles"),
        "wheel": _rates(records, "wheel"),
        "turns": stats.mean_sd([r["turns"] for r in records])[0] if records else 0,
        "actions": stats.mean_sd([r["actions"] for r in records])[0] if records else 0,
        "never_fired": never,
    }


def seat_balance(records: list[dict]) -> list[dict]:
    """Per seat, the points it scores above the average of its game's seats, with a 95% interval (each
    game one observation, so the deal's luck cancels): 0 for every seat is a balanced game. Empty in solo."""
    seats = min((len(r["scores"]) for r in records), default=0)
    if seats < 2:
        return []
    out = []
    for i in range(seats):
        xs = [r["scores"][i] - sum(r["scores"]) / len(r["scores"]) for r in records]
        mean, low, high = stats.mean_ci(xs)
        out.append({"seat": i + 1, "advantage": mean, "low": low, "high": high})
    return out


def solo_ladder(records: list[dict]) -> dict | None:
    """In solo games of a pack with a score ladder: how many games reached each title, and the share above
    the pack's good score with its Wilson interval. None otherwise."""
    verdicts = [r.get("solo") for r in records]
    if not verdicts or any(v is None for v in verdicts):
        return None
    titles = Counter(v["title"] for v in verdicts)
    good = sum(1 for v in verdicts if v["good"])
    p, low, high = stats.wilson(good, len(verdicts))
    return {"good_score": verdicts[0]["good_score"], "good": good, "good_rate": p, "good_low": low,
            "good_high": high, "titles": dict(titles.most_common())}


def _rates(records, field) -> dict[str, float]:
    total: Counter = Counter()
    for r in records:
        total.update(r[field])
    n = len(records) or 1
    return {k: v / n for k, v in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))}


def content_keys(ruleset) -> dict[str, str]:
    """Program key -> the record it belongs to, for every record that can come into play (tiles,
    technologies, plazas, seals, bridge tiles, tokens, bonuses); boards and unused faces are left out."""
    files = {rk.file_kind for rk in ruleset.record_kinds.values()}
    return {f.key: f.record for f in ruleset.fields if f.start == "program" and f.record and f.kind in files}


def track_rewards(tables, name: Callable[[str], str] = str) -> dict[str, str]:
    """Program key -> a label for every reward printed on a track (a space's `on_reach`), in the tracks'
    order: "<track>, space <n>: <effect>"."""
    from interpreter.dsl.printer import to_text

    return {key: f"{name(tid)}, space {space}: {to_text(tables.asts[key])}"
            for tid, track in tables.tracks.items() for space, keys in sorted(track.on_reach.items()) for key in keys}


def milestones(records: list[dict], rewards: dict[str, str]) -> dict[str, list[dict]]:
    """In how many games each track reward was reached (its program ran: ``rewards`` maps program keys to
    labels, see track_rewards) and each action was performed by some seat, with Wilson intervals: whether
    the bots ever go for what a rule offers far ahead (a reward at the end of a long track)."""
    n = len(records)

    def row(label: str, games: int) -> dict:
        p, low, high = stats.wilson(games, n)
        return {"label": label, "games": games, "share": p, "low": low, "high": high}

    reached = [row(label, sum(1 for r in records if key in r["fired"])) for key, label in rewards.items()]
    by_effect: dict[str, set[str]] = defaultdict(set)  # the same reward on several tracks: reached on any
    for key, label in rewards.items():
        by_effect[label.split(": ", 1)[-1]].add(key)
    reached += [row(f"any track: {effect}", sum(1 for r in records if keys & set(r["fired"])))
                for effect, keys in by_effect.items() if len(keys) > 1]
    names = sorted({a for r in records for a, k in r["performed"].items() if k})
    verbs: dict[str, set[str]] = defaultdict(set)  # the actions of one verb: any of them
    for a in names:
        verbs[a.split(" ", 1)[0]].add(a)
    performed = [row(a, sum(1 for r in records if r["performed"].get(a))) for a in names]
    performed += [row(f"{verb} (any)", sum(1 for r in records if any(r["performed"].get(a) for a in group)))
                  for verb, group in verbs.items() if len(group) > 1]
    return {"rewards": reached, "performed": sorted(performed, key=lambda x: (-x["games"], x["label"]))}


def source_changes(pairs: list[tuple[dict, dict]]) -> list[dict]:
    """Per source of points, the paired change of its points per player (variant less base, game by game)
    with its 95% interval, the largest changes first."""
    def per_player(r: dict, source: str) -> float:
        return sum(b.get(source, 0) for b in r["breakdown"]) / max(1, len(r["breakdown"]))

    sources = sorted({k for a, b in pairs for r in (a, b) for bd in r["breakdown"] for k in bd})
    out = []
    for source in sources:
        d = stats.paired_difference([per_player(a, source) for a, _ in pairs], [per_player(b, source) for _, b in pairs])
        out.append({"source": source, "mean": d["mean"], "low": d["low"], "high": d["high"]})
    return sorted(out, key=lambda c: -abs(c["mean"]))


def compare(base: list[dict], variant: list[dict]) -> dict:
    """Paired comparison (same seeds in the same order): mean score difference with its interval and
    effect size, seat win-rate changes, per-source changes, and the tiles whose pick rate moved most."""
    pairs = [(a, b) for a, b in zip(base, variant) if a["seed"] == b["seed"]]
    if len(pairs) != len(base) or len(base) != len(variant):
        raise ValueError("the base and variant records must be the same seeds in the same order")
    avg = lambda r: sum(r["scores"]) / len(r["scores"])  # noqa: E731
    diff = stats.paired_difference([avg(a) for a, _ in pairs], [avg(b) for _, b in pairs])
    seats = []
    for i in range(len(base[0]["scores"]) if base else 0):
        x1 = sum(1 for r in base if r["winner"] == i + 1)
        x2 = sum(1 for r in variant if r["winner"] == i + 1)
        seats.append({"seat": i + 1, **stats.two_proportions(x1, len(base), x2, len(variant)),
                      **{f"score_{k}": v for k, v in stats.paired_difference([a["scores"][i] for a, _ in pairs],
                                                                             [b["scores"][i] for _, b in pairs]).items()
                         if k in ("mean", "low", "high")}})
    sb, sv = summarize(base), summarize(variant)
    sources = sorted(set(sb["sources"]) | set(sv["sources"]))
    source_change = {k: sv["sources"].get(k, 0.0) - sb["sources"].get(k, 0.0) for k in sources}
    tiles = sorted(set(sb["tiles"]) | set(sv["tiles"]))
    moved = sorted(((t, sb["tiles"].get(t, 0.0), sv["tiles"].get(t, 0.0)) for t in tiles),
                   key=lambda x: -abs(x[2] - x[1]))
    return {"games": len(pairs), "score": diff, "seats": seats,
            "differences": [avg(b) - avg(a) for a, b in pairs],  # per game: the variant's mean score less the base's
            "sources": dict(sorted(source_change.items(), key=lambda kv: -abs(kv[1]))),
            "source_changes": source_changes(pairs),
            "tiles_moved": [{"tile": t, "base": a, "variant": b, "change": b - a} for t, a, b in moved[:15]],
            "base": sb, "variant": sv}


# --------------------------------------------------------------------------- text


def summary_text(s: dict, name: Callable[[str], str] = str) -> str:
    """The summary as text; ``name`` says what a source or record id is called (labels.Labels.source)."""
    lines = [f"{s['games']} games, {s['turns']:.0f} turns and {s['actions']:.0f} actions per game", ""]
    ladder = s.get("ladder")
    if ladder:  # solo: no winner (R-TIE-3); the score ladder instead of a win rate
        lines.append(f"{'seat':<6}{'bot':<14}{'mean':>8}{'sd':>7}{'95% CI':>18}")
        lines += [f"{r['seat']:<6}{r['bot']:<14}{r['mean']:>8.1f}{r['sd']:>7.1f}{_ci(r['low'], r['high']):>18}"
                  for r in s["seats"]]
        lines += ["", f"score ladder: above {ladder['good_score']} (a good score) in {ladder['good']} games, "
                      f"{ladder['good_rate']:.1%} {_ci(ladder['good_low'], ladder['good_high'], pct=True)}"]
        lines += [f"  {title or '(below the ladder)':<40}{n:>6}" for title, n in ladder["titles"].items()]
    else:
        lines.append(f"{'seat':<6}{'bot':<14}{'mean':>8}{'sd':>7}{'95% CI':>18}{'wins':>7}{'win rate':>10}{'95% CI':>18}")
        for r in s["seats"]:
            lines.append(f"{r['seat']:<6}{r['bot']:<14}{r['mean']:>8.1f}{r['sd']:>7.1f}{_ci(r['low'], r['high']):>18}"
                         f"{r['wins']:>7}{r['win_rate']:>10.1%}{_ci(r['win_low'], r['win_high'], pct=True):>18}")
    if s.get("balance"):
        lines += ["", "seat balance (points above the game's average, 95% CI):"]
        lines += [f"  seat {b['seat']:<3}{b['advantage']:>+8.2f}{_ci(b['low'], b['high']):>18}" for b in s["balance"]]
    if len(s["bots"]) > 1 and not ladder:
        lines += ["", f"{'bot':<14}{'seats':>7}{'mean':>8}{'95% CI':>18}{'win rate':>10}{'95% CI':>18}"]
        for b in s["bots"]:
            lines.append(f"{b['bot']:<14}{b['seats']:>7}{b['mean']:>8.1f}{_ci(b['low'], b['high']):>18}"
                         f"{b['win_rate']:>10.1%}{_ci(b['win_low'], b['win_high'], pct=True):>18}")
    timed = [b for b in s["bots"] if b.get("ms_per_move") is not None]
    if timed:
        lines += ["", f"{'bot':<14}{'moves':>9}{'ms/move':>10}{'slowest ms':>12}   (CPU time choosing)"]
        lines += [f"{b['bot']:<14}{b['moves']:>9}{b['ms_per_move']:>10.1f}{b['slowest_ms']:>12.1f}" for b in timed]
    lines += ["", "points per player by source (mean):"]
    lines += [f"  {name(k):<40}{v:>7.2f}" for k, v in list(s["sources"].items())[:20]]
    if s["performed"]:
        lines += ["", "actions performed per game:"] + [f"  {k:<28}{v:>7.2f}" for k, v in s["performed"].items()]
    if s["tiles"]:
        lines += ["", "most picked records per game:"] + [f"  {name(k):<40}{v:>7.2f}" for k, v in list(s["tiles"].items())[:10]]
    if s["never_fired"]:
        lines += ["", f"content that never fired ({len(s['never_fired'])}): " + ", ".join(s["never_fired"][:40])
                  + (" ..." if len(s["never_fired"]) > 40 else "")]
    return "\n".join(lines)


def compare_text(c: dict, mdd_note: str = "", name: Callable[[str], str] = str) -> str:
    d = c["score"]
    lines = [f"{c['games']} paired games (same seeds){mdd_note}",
             f"mean score per player: base {_mean_all(c['base']):.2f}, "
             f"variant {_mean_all(c['variant']):.2f}",
             f"difference (variant - base): {d['mean']:+.2f}, 95% CI {_ci(d['low'], d['high'])}, "
             f"effect size d_z {d['effect_size']:+.2f}, p = {d['p_value']:.3g}", "",
             f"{'seat':<6}{'win base':>10}{'win variant':>13}{'change':>9}{'95% CI':>20}{'score change':>14}"]
    for s in c["seats"]:
        lines.append(f"{s['seat']:<6}{s['p1']:>10.1%}{s['p2']:>13.1%}{s['diff']:>+9.1%}"
                     f"{_ci(s['low'], s['high'], pct=True):>20}{s['score_mean']:>+14.2f}")
    lines += ["", "points per player by source, change:"]
    lines += [f"  {name(k):<40}{v:>+7.2f}" for k, v in list(c["sources"].items())[:15]]
    lines += ["", "tiles whose pick rate moved most (picks per game):"]
    lines += [f"  {name(t['tile']):<40}{t['base']:>6.2f} -> {t['variant']:<6.2f}" for t in c["tiles_moved"][:10]]
    return "\n".join(lines)


def _mean_all(s: dict) -> float:
    seats = s["seats"]
    return sum(r["mean"] for r in seats) / len(seats) if seats else 0.0


def _ci(low: float, high: float, pct: bool = False) -> str:
    return f"[{low:.1%}, {high:.1%}]" if pct else f"[{low:.1f}, {high:.1f}]"
