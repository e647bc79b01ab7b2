"""The designer's report of a simulation or a comparison, as Markdown or as one HTML page: the setup (pack,
variants, players, bots, games, seeds), the verdict in one sentence, the tables and the plots.

A report is built as a list of blocks (a heading, a paragraph, a table, an image) and written out by
``markdown`` or ``html``; the HTML page carries its plots inside it, so it can be sent as one file.
"""

from __future__ import annotations

import base64
import html as _html
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

Name = Callable[[str], str]


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Image:
    path: Path
    alt: str


@dataclass(frozen=True)
class Setup:
    command: str  # "simulate" or "compare"
    pack: str  # the pack's id and name
    variants: tuple[str, ...]  # simulate: the overlays played; compare: the variant's (the base's are in `base`)
    players: int
    bots: tuple[str, ...]
    games: int
    seeds: tuple[int, int]  # the first and the last
    base: tuple[str, ...] = ()


def _ci(low: float, high: float, signed: bool = False, pct: bool = False) -> str:
    if low != low:  # NaN: too few games
        return "n/a"
    if pct:
        return f"[{100 * low:+.0f}%, {100 * high:+.0f}%]" if signed else f"[{100 * low:.0f}%, {100 * high:.0f}%]"
    return f"[{low:+.2f}, {high:+.2f}]" if signed else f"[{low:.1f}, {high:.1f}]"


def _setup_blocks(setup: Setup) -> list:
    rows = [("pack", setup.pack), ("players", str(setup.players)), ("bots", ", ".join(setup.bots)),
            ("games", f"{setup.games}" + (" paired (the same seeds for both)" if setup.command == "compare" else "")),
            ("seeds", f"{setup.seeds[0]} to {setup.seeds[1]}")]
    if setup.command == "compare":
        rows.insert(1, ("base game", ", ".join(setup.base) or "the pack as it is"))
        rows.insert(2, ("variant", ", ".join(setup.variants)))
    else:
        rows.insert(1, ("variants", ", ".join(setup.variants) or "none (the pack as it is)"))
    return [Heading("Setup"), Table(("", ""), tuple(rows))]


# --------------------------------------------------------------------------- verdicts


def simulate_verdict(summary: dict) -> str:
    """What a simulation says, in one sentence."""
    ladder = summary.get("ladder")
    seats = summary["seats"]
    if not seats:
        return "No game was played."
    if len(seats) == 1:
        r = seats[0]
        text = (f"{r['bot']} scores {r['mean']:.1f} points on average (95% interval {_ci(r['low'], r['high'])}) "
                f"over {summary['games']} solo games")
        if ladder:
            text += (f"; {100 * ladder['good_rate']:.0f}% of them {_ci(ladder['good_low'], ladder['good_high'], pct=True)} "
                     f"are above the good score of {ladder['good_score']}")
        return text + "."
    edges = [b for b in summary["balance"] if b["low"] > 0 or b["high"] < 0]
    bots = {r["bot"] for r in seats}
    if len(bots) > 1:
        best = max(summary["bots"], key=lambda b: b["win_rate"])
        lead = (f"{best['bot']} wins {100 * best['win_rate']:.0f}% {_ci(best['win_low'], best['win_high'], pct=True)} "
                f"of the seats it plays")
    else:
        lead = f"With {seats[0]['bot']} in every seat, the mean score is {sum(r['mean'] for r in seats) / len(seats):.1f}"
    if edges:
        e = max(edges, key=lambda b: abs(b["advantage"]))
        balance = (f"seat {e['seat']} has {'an edge' if e['advantage'] > 0 else 'a handicap'} of {e['advantage']:+.2f} points "
                   f"over its game's average (95% interval {_ci(e['low'], e['high'], signed=True)})")
    else:
        widest = max((max(abs(b["low"]), abs(b["high"])) for b in summary["balance"]), default=0.0)
        balance = f"no seat's edge is detectable (every seat within ±{widest:.1f} points of its game's average)"
    return f"{lead}; {balance}."


def compare_verdict(result: dict, name: Name = str) -> str:
    """What a comparison says, in one sentence: the change of the mean score, and where it comes from."""
    d, n = result["score"], result["games"]
    if d["low"] != d["low"]:
        return f"Too few games ({n}) to say anything."
    interval = f"95% interval {_ci(d['low'], d['high'], signed=True)}, {n} paired games"
    if d["low"] > 0 or d["high"] < 0:
        way = "raises" if d["mean"] > 0 else "lowers"
        text = f"The variant {way} the mean score per player by {abs(d['mean']):.2f} points ({interval})"
        sure = [c for c in result.get("source_changes", ()) if c["low"] > 0 or c["high"] < 0]
        if sure:
            c = sure[0]
            text += f"; the largest sure change is {name(c['source'])} ({c['mean']:+.2f} points per player)"
    else:
        bound = max(abs(d["low"]), abs(d["high"]))
        text = (f"No change of the mean score per player is detectable: {d['mean']:+.2f} points ({interval}), "
                f"so a change larger than {bound:.2f} points is unlikely")
    seats = [s for s in result["seats"] if s["low"] > 0 or s["high"] < 0]
    if seats:
        s = max(seats, key=lambda s: abs(s["diff"]))
        text += (f"; seat {s['seat']}'s win rate moves by {100 * s['diff']:+.0f}% "
                 f"{_ci(s['low'], s['high'], signed=True, pct=True)}")
    return text + "."


# --------------------------------------------------------------------------- reports


def simulate_report(setup: Setup, summary: dict, plots: list[Path], name: Name = str) -> list:
    blocks: list = [Heading(f"{setup.pack}: {setup.games} games, {setup.players} "
                            f"{'player' if setup.players == 1 else 'players'}"),
                    Paragraph(simulate_verdict(summary)), *_setup_blocks(setup), Heading("Scores")]
    seats = summary["seats"]
    if len(seats) == 1 or summary.get("ladder"):
        blocks.append(Table(("seat", "bot", "mean", "sd", "95% interval"),
                            tuple((str(r["seat"]), r["bot"], f"{r['mean']:.1f}", f"{r['sd']:.1f}", _ci(r["low"], r["high"]))
                                  for r in seats)))
    else:
        blocks.append(Table(("seat", "bot", "mean", "95% interval", "win rate", "95% interval"),
                            tuple((str(r["seat"]), r["bot"], f"{r['mean']:.1f}", _ci(r["low"], r["high"]),
                                   f"{100 * r['win_rate']:.0f}%", _ci(r["win_low"], r["win_high"], pct=True)) for r in seats)))
    if summary["balance"]:
        blocks += [Heading("Seat balance"), Paragraph("Points a seat scores above the average of its game's seats."),
                   Table(("seat", "edge", "95% interval"),
                         tuple((str(b["seat"]), f"{b['advantage']:+.2f}", _ci(b["low"], b["high"], signed=True))
                               for b in summary["balance"]))]
    blocks += [Heading("Where the points come from"),
               Table(("source", "points per player"), tuple((name(k), f"{v:.2f}") for k, v in list(summary["sources"].items())[:20]))]
    if summary["tiles"]:
        blocks += [Heading("The records picked most"),
                   Table(("record", "picks per game"), tuple((name(k), f"{v:.2f}") for k, v in list(summary["tiles"].items())[:15]))]
    if summary["never_fired"]:
        blocks += [Heading("Content that never came into play"), Paragraph(", ".join(summary["never_fired"]))]
    blocks += [Image(p, p.stem.replace("_", " ")) for p in plots]
    return blocks


def compare_report(setup: Setup, result: dict, plots: list[Path], name: Name = str, note: str = "") -> list:
    d = result["score"]
    blocks: list = [Heading(f"{setup.pack}: the variant against {'its base' if setup.base else 'the pack as it is'}"),
                    Paragraph(compare_verdict(result, name)), *_setup_blocks(setup)]
    if note:
        blocks.append(Paragraph(note.strip("; ").capitalize() + "."))
    blocks += [Heading("Mean score per player"),
               Table(("base", "variant", "difference", "95% interval", "effect size d_z", "p"),
                     ((f"{_mean(result['base']):.2f}", f"{_mean(result['variant']):.2f}", f"{d['mean']:+.2f}",
                       _ci(d["low"], d["high"], signed=True), _signed(d["effect_size"]), _p(d["p_value"])),)),
               Heading("Win rate per seat"),
               Table(("seat", "base", "variant", "change", "95% interval", "score change"),
                     tuple((str(s["seat"]), f"{100 * s['p1']:.0f}%", f"{100 * s['p2']:.0f}%", f"{100 * s['diff']:+.0f}%",
                            _ci(s["low"], s["high"], signed=True, pct=True), f"{s['score_mean']:+.2f}")
                           for s in result["seats"])),
               Heading("Change of the points from each source"),
               Table(("source", "change per player", "95% interval"),
                     tuple((name(c["source"]), f"{c['mean']:+.2f}", _ci(c["low"], c["high"], signed=True))
                           for c in result["source_changes"][:20])),
               Heading("Records whose pick rate moved most"),
               Table(("record", "base", "variant"),
                     tuple((name(t["tile"]), f"{t['base']:.2f}", f"{t['variant']:.2f}") for t in result["tiles_moved"][:15]))]
    blocks += [Image(p, p.stem.replace("_", " ")) for p in plots]
    return blocks


def _mean(summary: dict) -> float:
    seats = summary["seats"]
    return sum(r["mean"] for r in seats) / len(seats) if seats else 0.0


def _signed(x: float) -> str:
    return "n/a" if x != x else f"{x:+.2f}" if not math.isinf(x) else ("+inf" if x > 0 else "-inf")


def _p(x: float) -> str:
    return "n/a" if x != x else f"{x:.3g}"


# --------------------------------------------------------------------------- writing


def markdown(blocks: list, title: str) -> str:
    out = [f"# {title}", ""]
    for b in blocks:
        if isinstance(b, Heading):
            out += [f"## {b.text}", ""]
        elif isinstance(b, Paragraph):
            out += [b.text, ""]
        elif isinstance(b, Table):
            cell = lambda s: str(s).replace("|", "\\|")  # noqa: E731
            out.append("| " + " | ".join(cell(h) for h in b.headers) + " |")
            out.append("|" + "|".join(" --- " for _ in b.headers) + "|")
            out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif isinstance(b, Image):
            out += [f"![{b.alt}]({b.path.name})", ""]
    return "\n".join(out)


STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.6rem;border-bottom:1px solid #ddd}
p.verdict{font-size:1.05rem;background:#f3f6fb;border-left:4px solid #6a8fc7;padding:.6rem .8rem}
table{border-collapse:collapse;margin:.4rem 0}td,th{padding:.2rem .7rem;border-bottom:1px solid #eee;text-align:left}
td:not(:first-child){font-variant-numeric:tabular-nums}img{max-width:100%;display:block;margin:1rem 0}"""


def html(blocks: list, title: str) -> str:
    e = _html.escape
    out = ["<!doctype html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">", f"<title>{e(title)}</title>",
           f"<style>{STYLE}</style></head><body>", f"<h1>{e(title)}</h1>"]
    first = True
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h2>{e(b.text)}</h2>")
        elif isinstance(b, Paragraph):
            css = ' class="verdict"' if first else ""
            out.append(f"<p{css}>{e(b.text)}</p>")
            first = False
        elif isinstance(b, Table):
            head = "".join(f"<th>{e(h)}</th>" for h in b.headers)
            rows = "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>" for row in b.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(b, Image):
            data = base64.b64encode(b.path.read_bytes()).decode("ascii")
            out.append(f"<img alt=\"{e(b.alt)}\" src=\"data:image/png;base64,{data}\">")
    out.append("</body></html>")
    return "\n".join(out)


def write(blocks: list, title: str, path: Path) -> Path:
    """The report as HTML for a `.html` or `.htm` path, else as Markdown (its plots stay beside it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = html(blocks, title) if path.suffix.lower() in (".html", ".htm") else markdown(blocks, title)
    path.write_text(text, encoding="utf-8")
    return path
