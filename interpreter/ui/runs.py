"""Many bot games from the command line: checking the bots asked for, running the games with a progress bar,
and writing one record per game."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from interpreter.ui.console import err


def progress(total: int, label: str):
    """A rich progress bar on stderr; returns (context manager, tick)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                   transient=False)
    task = bar.add_task(label, total=total)
    return bar, (lambda n: bar.advance(task, n))


def run_bot_games(pack, variants, players, games, bots, seed, workers, scheduler, label):
    from interpreter.play.simulate import check_bots_made, run_games, specs_for

    try:
        specs = specs_for(players, games, bots, seed, variants, str(pack) if pack else None)
        check_bots_made(specs)
    except ValueError as exc:
        err.print(f"[bold red]error[/]: {escape(str(exc))}")
        raise typer.Exit(2)
    bar, tick = progress(len(specs), label)
    with bar:
        return run_games(specs, workers=workers, scheduler=scheduler, progress=tick)


def check_bots(bots: list[str], players: int) -> None:
    from interpreter.play.bots import BOTS

    for b in bots:
        if b.split(":")[0] not in BOTS:
            err.print(f"[bold red]error[/]: unknown bot '{escape(b)}'; known: {', '.join(BOTS)}")
            raise typer.Exit(2)
    if len(bots) not in (1, players):
        err.print(f"[bold red]error[/]: give one bot or one per seat ({players}), got {len(bots)}")
        raise typer.Exit(2)


def write_records(records: list[dict], path: Path) -> None:
    import csv
    import json as _json

    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            seats = max(len(r["scores"]) for r in records)
            w.writerow(["seed", "players", "variants", "winner", "turns", "actions",
                        *[f"bot_{i + 1}" for i in range(seats)], *[f"score_{i + 1}" for i in range(seats)],
                        "breakdown", "performed", "tiles"])
            for r in records:
                w.writerow([r["seed"], r["players"], " ".join(r["variants"]), r["winner"] or "", r["turns"], r["actions"],
                            *r["bots"][:seats], *r["scores"], _json.dumps(r["breakdown"]), _json.dumps(r["performed"]),
                            _json.dumps(r["tiles"])])
    else:
        with path.open("w", encoding="utf-8") as fh:
            for r in records:
                fh.write(_json.dumps(r, sort_keys=True) + "\n")
