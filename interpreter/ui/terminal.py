"""Playing in the terminal: the text picture of a state, the play loop (bots move by themselves, people pick by
number or notation, `undo`, `save FILE`, `load FILE`, `q`), playing a file of moves, the final scores, and
who plays each seat of a saved game."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from interpreter.mechanisms import market_rows
from interpreter.ui import console, log_text, menu_text
from interpreter.ui.console import out
from interpreter.ui.kinds import MAP_KIND, WHEEL_KIND, laid_on_slots, table_key
from interpreter.runtime.unavailable import unavailable

SEAT_COLOURS = ("red", "blue", "green", "yellow", "magenta")


def summary(game, seat: int | None = None) -> str:
    """A compact text picture of what ``seat`` (default: the seat to act) may see, for terminal play."""
    from interpreter.mechanisms import wheel

    obs = game.observation(game.current_player if seat is None else seat)
    if not game.rules.uses_offers:
        return core_summary(obs)
    table = obs["table"]
    lines = [f"turn {obs['turn']} (round {game.state.flow.round}), era {table.get('era', 1)}, "
             f"seat {obs['current'] + 1} to play"]
    wheel_key = table_key(game.rules.ruleset, WHEEL_KIND)
    cs = wheel.from_json(table[wheel_key])
    g = game.rules.geometry
    lines.append(f"{wheel_key}: " + ", ".join(f"{pos}:{tile}" + ("(+)" if tile in cs.flagged else "") + f"[{g.zones[pos]}]"
                                      for pos, tile in wheel.tiles_by_position(cs)))
    for p in obs["players"]:
        held = ", ".join(f"{k} {v}" for k, v in sorted(p["holdings"].items()) if v)
        tracks = ", ".join(f"{k} {v}" for k, v in sorted(p["tracks"].items()))
        owned = ", ".join(i for ids in p["owned"].values() for i in ids)
        lines.append(f"  seat {p['seat'] + 1}: {p['score']} points | {held or 'nothing'} | {tracks}" + (f" | {owned}" if owned else ""))
        grids = ", ".join(f"{k} row {v[0]} col {v[1]}" for k, v in sorted(p["grids"].items()))
        area = ", ".join(f"{h}:{stack[-1][0]}" for h, stack in sorted(p["area"].items()))
        lines.append(f"          {grids}" + (f" | board {area}" if area else ""))
    for kind, spec in sorted(game.rules.tables.layout.rows.items()):
        row = market_rows.positions(spec, obs["zones"][spec.zone])
        lines.append(f"row {kind}: " + " ".join(t or "-" for t in row["regular"]) + " | special " +
                     " ".join(t or "-" for t in row["special"]))
    map_key = table_key(game.rules.ruleset, MAP_KIND)
    built = [f"{site}:{e['tile']}" + (f"(seat {e['owner'] + 1})" if e.get("owner") is not None else "")
             for site, e in sorted(table.get(map_key, {}).items())]
    if built:
        lines.append(f"{map_key}: " + ", ".join(built))
    slots_key = game.rules.tables.layout.slot_key
    laid = laid_on_slots(game.rules, obs["zones"])
    if laid:
        lines.append(f"{slots_key}: " + ", ".join(f"{k}:{v}" for k, v in sorted(laid.items())))
    taken = obs["turn_info"].get("tile")
    if taken:
        lines.append(f"taken this turn: {taken}")
    waiting = obs["turn_info"]["later"]
    if waiting:
        lines.append("to resolve this turn: " + ", ".join(waiting))
    d = obs["decision"]
    if d is not None:
        shown = " | ".join(d["options"][:12]) if d["options"] is not None else "(hidden)"
        lines.append(f"decision for seat {d['player'] + 1} ({d['kind']}): " + shown
                     + (f" ... ({d['count']} options)" if d["count"] > 12 else ""))
    return "\n".join(lines)


def core_summary(obs: dict) -> str:
    """The text picture of a game on the generic core, from its observation: where the flow stands,
    each seat's points, holdings and free pieces, the zones it may see, the spaces and the dice."""
    flow = obs["flow"]
    if flow is None:  # the setup is still running (a choice in it)
        lines = ["setup"]
    else:
        lines = [f"round {flow['round']}, phase {flow['phase']}, seat {obs['current'] + 1} to play"
                 + (f"; passed: {', '.join(str(s + 1) for s in flow['passed'])}" if flow["passed"] else "")]
    if obs["shared"]:
        lines.append("table: " + ", ".join(f"{k} {v}" for k, v in sorted(obs["shared"].items())))
    for p in obs["players"]:
        held = ", ".join(f"{k} {v}" for k, v in sorted(p["holdings"].items()) if v)
        free = ", ".join(f"{k} {v}" for k, v in sorted(p["pieces_free"].items()))
        lines.append(f"  seat {p['seat'] + 1}: {p['score']} points | {held or 'nothing'}" + (f" | free: {free}" if free else ""))
    for zone, seen in sorted(obs["zones"].items()):
        name, _, owner = zone.partition("@")
        label = f"{name} of seat {int(owner) + 1}" if owner else name
        shown = f"{seen['size']} hidden" if isinstance(seen, dict) else (" ".join(r or "-" for r in seen) or "empty")
        lines.append(f"{label}: {shown}")
    taken = [f"{space}: " + ", ".join(f"seat {o + 1} {piece}" for o, piece in occ) for space, occ in sorted(obs["spaces"].items()) if occ]
    if taken:
        lines.append("spaces: " + "; ".join(taken))
    if obs["dice"]:
        lines.append("dice: " + ", ".join(f"{d} {v}" for d, v in sorted(obs["dice"].items())))
    if obs["marks"]:
        lines.append("on records: " + "; ".join(f"{rid} " + ", ".join(f"{k} {v}" for k, v in sorted(kept.items()))
                                                for rid, kept in sorted(obs["marks"].items())))
    d = obs["decision"]
    if d is not None:
        shown = " | ".join(d["options"][:12]) if d["options"] is not None else "(hidden)"
        lines.append(f"decision for seat {d['player'] + 1} ({d['kind']}): " + shown)
    return "\n".join(lines)


def show(game) -> None:
    """The state summary, each seat in its colour."""
    for line in summary(game).splitlines():
        colour = next((SEAT_COLOURS[int(w.split()[1].rstrip(":")) - 1] for w in [line.strip()[:8]]
                       if w.startswith("seat ") and w.split()[1].rstrip(":").isdigit()), None)
        out.print(f"[{colour}]{escape(line)}[/]" if colour else escape(line))


def final(game) -> None:
    from interpreter.content.labels import Labels

    labels = Labels.of(game.rules.ruleset)
    for s in game.scores():
        parts = ", ".join(f"{k} {v}" for k, v in labels.breakdown(s["breakdown"]).items())
        out.print(f"seat {s['seat']}: {s['score']} points ({parts})", markup=False)
    solo = game.solo_verdict()
    if solo is not None:
        verdict = "over" if solo["good"] else "not over"
        out.print(f"solo: {solo['score']} points, {verdict} the rulebook's good score of {solo['good_score']}"
                  + (f"; title: {solo['title']}" if solo["title"] else ""), markup=False)
    elif game.winner() is not None:
        out.print(f"winner: seat {game.winner()}", markup=False)


HELP = """commands: a number or an action's notation plays it; the words of a folded group (e.g. `place`)
list its options; `help <record>` says what a record does (its id or name); `why` says why an action of the
menu is not offered; Enter shows the table again; `undo`; `save FILE`; `load FILE`; `q` quits"""


def interactive(game, specs: dict[int, str], pack):
    """The terminal loop: bots move by themselves; people pick by number or notation, or `undo`, `save F`, `load F`,
    `help <record>`. The table and the menu are shown when the game has moved; an error or a help text is
    printed under them, so it stays on screen. Returns the game and the bots' seats (a `load` may change both)."""
    import random as _random

    from interpreter.errors import IllegalActionError
    from interpreter.runtime.notation import parse

    from interpreter.content.labels import Labels

    rng = _random.Random(game.state.table.get("seed", 0))
    bots = bots_for(specs, game)
    history = []  # states before each human action, for undo
    name = Labels.of(game.rules.ruleset).name
    fresh = True  # the table and the menu are to be shown
    while not game.is_terminal():
        seat = game.current_player
        if seat in bots:
            action = bots[seat].choose(game, rng)
            said = log_text.said(game, action, name)
            game.apply(action)
            out.print(f"[bold]seat {seat + 1}[/] ({bots[seat].name}): {escape(action)}"
                      + (f" [dim]({escape(said)})[/]" if said != action else ""))
            fresh = True
            continue
        legal = game.legal_actions()
        options = game.state.decision.options if game.state.decision else None
        phrases = game.action_phrases()
        if fresh:
            show(game)
            show_menu(legal, lambda a: log_text.words_for(a, options, phrases, name))
            missing = unavailable(game, legal)
            if missing:
                out.print(f"not offered now: {', '.join(u.name for u in missing)} (type why)", markup=False)
            fresh = False
        try:
            line = input(f"seat {seat + 1}> ").strip()
        except EOFError:
            break
        word, _, arg = line.partition(" ")
        arg = arg.strip()
        if line in ("q", "quit"):
            break
        if not line:
            fresh = True
            continue
        if word == "help":
            show_help(game, arg)
            continue
        if line == "why":
            show_why(game, legal)
            continue
        if line == "undo":
            if not history:
                out.print("nothing to undo")
                continue
            game, fresh = history.pop(), True
            continue
        if word in ("save", "load") and arg:
            if word == "save":
                write_save(game, Path(arg), specs, "saved to")
            else:
                try:
                    loaded, saved = load_saved(Path(arg), pack)
                except typer.Exit:
                    continue  # the message is printed; the game in progress goes on
                game, history, fresh = loaded, [], True
                specs = saved_specs(game, saved)
                bots = bots_for(specs, game)
                who = ", ".join(f"seat {i + 1} {spec}" for i, spec in sorted(specs.items())) or "every seat human"
                out.print(f"loaded {escape(arg)}: {len(game.state.log)} steps played; {escape(who)}")
            continue
        typed = " ".join(line.lower().split())
        if typed not in legal and not typed.isdigit() and menu_text.under(legal, typed):
            show_menu(legal, lambda a: log_text.words_for(a, options, phrases, name), typed)  # the options under these words
            continue
        try:
            action = parse(line, legal, game.action_words())
            before = game.clone()
            game.apply(action)
            history.append(before)
            fresh = True
        except IllegalActionError as exc:
            out.print(f"[bold red]illegal[/]: {escape(exc.reason)}  [dim](help: `help`; the table again: Enter)[/]")
    return game, specs


def show_menu(legal: list[str], describe, prefix: str = "") -> None:
    for line in menu_text.lines(legal, describe, prefix):
        out.print(line, markup=False)


def show_why(game, legal: list[str]) -> None:
    """`why`: each entry of the menu that offers nothing now, and why."""
    missing = unavailable(game, legal)
    if not missing:
        out.print("every action of the menu is offered" if legal else "nobody is to act", markup=False)
    for u in missing:
        out.print(f"not now: {u.name}: {u.reason}", markup=False)


def show_help(game, what: str) -> None:
    """`help`: the commands; `help <record>`: the record in words."""
    from interpreter.content.labels import record_help

    if not what:
        out.print(HELP, markup=False)
        return
    said = record_help(game.rules.ruleset, what)
    if said is None:
        out.print(f"no record is called {escape(what)!r}; `help` lists the commands", markup=False)
        return
    out.print("\n".join(said), markup=False)


def play_moves(game, path: Path, log: Optional[Path], specs: dict[int, str]) -> None:
    """Play the actions of a file, one per line (# comments), print each and the state after them; a clear
    message and exit status 1 at the first illegal one (the game so far is written to ``log`` all the same)."""
    from interpreter.errors import IllegalActionError
    from interpreter.runtime.notation import parse

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        out.print(f"[bold red]error[/]: cannot read {escape(str(path))}: {escape(str(exc))}")
        raise typer.Exit(2)
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        seat = game.current_player + 1
        try:
            action = parse(text, game.legal_actions(), game.action_words())
            game.apply(action)
        except IllegalActionError as exc:
            out.print(f"{escape(str(path))}:{n}: [bold red]illegal action[/] {escape(text)!r}: {escape(exc.reason)}")
            save_log(game, log, specs)
            raise typer.Exit(1)
        out.print(f"{n:>4}  seat {seat}: {action}", markup=False)
    out.print(summary(game), markup=False)
    if game.is_terminal():
        final(game)
    save_log(game, log, specs)


def seat_specs(specs: list[str], game) -> dict[int, str]:
    """`--seat 2=greedy` -> {1: "greedy"}; a clear error for a bad seat or bot."""
    from interpreter.play.bots import make_bot

    out_specs = {}
    for spec in specs:
        number, _, name = spec.partition("=")
        if not number.isdigit() or not 1 <= int(number) <= len(game.state.players) or game.is_dummy(int(number) - 1):
            out.print(f"[bold red]error[/]: --seat {escape(spec)}: seats are 1..{len(game.state.players)} (not the dummy)")
            raise typer.Exit(2)
        try:
            make_bot(name or "greedy", game.rules)
        except ValueError as exc:
            out.print(f"[bold red]error[/]: --seat {escape(spec)}: {escape(str(exc))}")
            raise typer.Exit(2)
        out_specs[int(number) - 1] = name or "greedy"
    return out_specs


def playing_seats(game) -> list[int]:
    """The seat indices people or bots play (not the rulebook's automatic dummy)."""
    return [i for i in range(len(game.state.players)) if not game.is_dummy(i)]


def saved_specs(game, saved: Optional[list[str]]) -> dict[int, str]:
    """The bots a save recorded, by seat index (every seat human when it recorded none)."""
    if saved is None:
        return {}
    return {i: spec for i, spec in zip(playing_seats(game), saved) if spec != "human"}


def seats_to_save(game, specs: dict[int, str]) -> list[str]:
    return [specs.get(i, "human") for i in playing_seats(game)]


def bots_for(specs: dict[int, str], game) -> dict:
    from interpreter.play.bots import make_bot

    return {seat: make_bot(spec, game.rules) for seat, spec in specs.items()}


def load_saved(path: Path, pack):
    """(game, seats) of a save written by `save FILE` or `--log` (seats None when it records none); a clear
    message and exit status 2 when the file is not one this pack can go on with."""
    from interpreter.play import savefile

    def ruleset_for(variants):
        outcome = console.pipeline_outcome(pack, variants)
        if outcome.errors:
            raise savefile.SaveError(f"its variants ({', '.join(variants)}) do not load: {outcome.errors[0].format()}")
        return outcome.ruleset

    try:
        return savefile.load(path, ruleset_for)
    except savefile.SaveError as exc:
        out.print(f"[bold red]error[/]: {escape(exc.describe(str(path)))}")
        raise typer.Exit(2)


def write_save(game, path: Path, specs: dict[int, str], done: str) -> bool:
    """Write the game and who plays its seats to `path`; a message (not a crash) when it cannot be written."""
    from interpreter.play import savefile

    try:
        path.write_text(savefile.dumps(game, seats_to_save(game, specs)), encoding="utf-8")
    except OSError as exc:
        out.print(f"[bold red]error[/]: cannot write {escape(str(path))}: {escape(exc.strerror or 'the file cannot be written')}")
        return False
    out.print(f"{done} {escape(str(path))}")
    return True


def save_log(game, log: Optional[Path], specs: dict[int, str]) -> None:
    if log is not None:
        write_save(game, log, specs, "game written to")
