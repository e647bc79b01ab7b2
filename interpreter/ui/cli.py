"""The `caput` command line: its commands only. What they share is in ``console``, terminal play in
``terminal``, runs of many bot games in ``runs``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from interpreter.errors import ContentError
from interpreter.ui import console, runs, terminal
from interpreter.ui.console import out

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="caput: a data-driven rules interpreter for euro board games. Content is YAML; effects are a small DSL.",
)
content_app = typer.Typer(no_args_is_help=True, help="Inspect a content pack.")
dsl_app = typer.Typer(no_args_is_help=True, help="Try effect DSL text on its own.")
scenario_app = typer.Typer(no_args_is_help=True, help="Rules scenarios: a setup, actions and expected states.")
app.add_typer(content_app, name="content")
app.add_typer(scenario_app, name="scenario")
app.add_typer(dsl_app, name="dsl")

VariantOpt = typer.Option(None, "--variant", "-v", help="Overlay file applied on the pack (repeatable, in order).")
JsonOpt = typer.Option(False, "--json", help="Print JSON only, on stdout.")


@app.command()
def validate(
    paths: Optional[List[Path]] = typer.Argument(None, help="Pack directories, pack.yaml, overlay or content files. Default: the bundled pack."),
    variant: Optional[List[Path]] = VariantOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run every phase (load, schema, references, parse, resolve, compile) and report ALL errors.

    Exit status: 0 clean, 1 content errors, 2 usage error.
    """
    from interpreter.content.ruleset import run_pipeline

    try:
        targets = paths or [None]
        all_errors: list[ContentError] = []
        checked = []
        for target in targets:
            outcome = run_pipeline(target, variant or ())
            all_errors.extend(outcome.errors)
            checked.append((target, outcome))
    except Exception as exc:  # pragma: no cover - the pipeline reports content problems as errors
        console.internal(exc)
    if as_json:
        sys.stdout.write(json.dumps([e.to_json() for e in all_errors], indent=2) + "\n")
    else:
        console.print_errors(all_errors)
        for target, outcome in checked:
            name = str(target) if target is not None else "bundled pack"
            if outcome.errors:
                files = len({e.span.path for e in outcome.errors if e.span})
                out.print(f"[bold red]{len(outcome.errors)} error(s)[/] in {files} file(s) while checking {escape(name)}")
            else:
                rs = outcome.ruleset
                shown = [v for v in rs.variants if v != name]
                variants = f" with {', '.join(shown)}" if shown else ""
                out.print(f"[bold green]ok[/]: {escape(name)}{escape(variants)}: pack '{rs.pack_id}', "
                          f"{outcome.summary['files']} files, {outcome.summary['fields']} DSL texts parsed, resolved and compiled")
    raise typer.Exit(1 if all_errors else 0)


@app.command()
def schema(
    out_dir: Path = typer.Option(None, "--out", help="Directory to write the JSON Schemas to (default: the bundled schemas/)."),
    check: bool = typer.Option(False, "--check", help="Exit 1 when the files in the directory differ from the models."),
) -> None:
    """Write one JSON Schema (draft 2020-12) per content kind, generated from the models."""
    from interpreter.paths import bundled_schemas
    from interpreter.content.schema_export import check_schemas, write_schemas

    target = out_dir or bundled_schemas()
    if check:
        stale = check_schemas(target)
        if stale:
            for name in stale:
                out.print(f"[bold red]stale[/]: {escape(str(target / name))}")
            out.print("Run `caput schema` to regenerate them.")
            raise typer.Exit(1)
        out.print(f"[bold green]ok[/]: schemas in {escape(str(target))} match the models")
        raise typer.Exit(0)
    written = write_schemas(target)
    out.print(f"wrote {len(written)} schemas to {escape(str(target))}")


@app.command()
def guide(
    path: Path = typer.Option(None, "--out", help="The authoring guide to update (default: content/README.md)."),
    check: bool = typer.Option(False, "--check", help="Exit 1 when the generated reference parts are stale."),
) -> None:
    """Regenerate the reference sections of the authoring guide from the models, grammar and error codes."""
    from interpreter.authoring.guide import update_guide
    from interpreter.paths import bundled_content

    from interpreter.authoring.guide import GuideError

    target = path or (bundled_content() / "README.md")
    try:
        changed = update_guide(target, write=not check)
    except GuideError as exc:
        out.print(f"[bold red]error[/]: {escape(str(exc))}")
        raise typer.Exit(1)
    if check and changed:
        out.print(f"[bold red]stale[/]: {escape(str(target))}; run `caput guide`")
        raise typer.Exit(1)
    out.print(f"{'updated' if changed else 'up to date'}: {escape(str(target))}")


@app.callback()
def _each_command() -> None:
    """caput: a data-driven rules interpreter for euro board games. Content is YAML; effects are a small DSL."""
    console.OUTCOMES.clear()  # content is read anew by every command


PackArg = typer.Argument(None, help="Pack directory (default: the bundled pack).")


@content_app.command("summary")
def content_summary(pack: Optional[Path] = PackArg, variant: Optional[List[Path]] = VariantOpt, as_json: bool = JsonOpt) -> None:
    """Counts per kind and era, and provenance counts."""
    from interpreter.authoring.report import summary, summary_text

    console.print_page(pack, variant, as_json, summary, summary_text)


@content_app.command("report")
def content_report(pack: Optional[Path] = PackArg, variant: Optional[List[Path]] = VariantOpt, as_json: bool = JsonOpt) -> None:
    """The summary, then every record's effects in plain English, to proofread a pack on one page."""
    from interpreter.authoring.report import report, report_text

    console.print_page(pack, variant, as_json, report, report_text)


@dsl_app.command("explain")
def dsl_explain(
    text: str = typer.Argument(..., help="Effect text, e.g. 'may pay 1 brick: score 4'."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="Pack whose names to check against (default: the bundled pack)."),
) -> None:
    """Parse one effect, check its names against a pack, and print it back canonically and in English."""
    from interpreter.dsl.english import to_english
    from interpreter.dsl.parse import DslSyntaxError, parse
    from interpreter.dsl.printer import to_text
    from interpreter.dsl.resolve import resolve

    try:
        tree = parse(text)
    except DslSyntaxError as exc:
        out.print(f"error[{exc.code}]: {escape(exc.message)}\n  {escape(text)}\n  {' ' * exc.start}{'^' * max(1, exc.end - exc.start)}")
        raise typer.Exit(1)
    rs = console.ruleset_or_exit(pack, ())
    problems = resolve(tree, rs.symbols).errors
    for p in problems:
        out.print(f"error[{p.code}]: {escape(p.message)}\n  {escape(text)}\n  {' ' * p.start}{'^' * max(1, p.end - p.start)}")
    out.print(f"canonical: {escape(to_text(tree))}")
    out.print(f"english:   {escape(to_english(tree, rs.names))}")
    raise typer.Exit(1 if problems else 0)


@scenario_app.command("run")
def scenario_run(paths: List[Path] = typer.Argument(..., help="Scenario files or folders of them.")) -> None:
    """Run scenarios; print PASS/FAIL per scenario with a readable diff. Exit 0 all pass, 1 a failure, 2 a broken file."""
    from interpreter.play.scenario import run_scenarios

    raise typer.Exit(run_scenarios(paths))


@app.command()
def play(
    players: int = typer.Option(2, "--players", "-p", min=1, help="Number of players (1 = solo against the dummy)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the game's random generator."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="Pack directory (default: the bundled pack)."),
    variant: Optional[List[Path]] = VariantOpt,
    moves: Optional[Path] = typer.Option(None, "--moves", help="Play the actions in this file, one per line (# comments)."),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the finished (or stopped) game here, for `caput replay`."),
    seat: Optional[List[str]] = typer.Option(None, "--seat", help="A bot takes a seat: `2=greedy` (repeatable; "
                                             "random, greedy[:evaluation], planner[:evaluation[:width[:turns[:frontier[:ahead[:guesses[:end[:checks]]]]]]]], best, mcts[:iterations], dummy)."),
    load: Optional[Path] = typer.Option(None, "--load", help="Continue a game saved with `save FILE` or --log."),
) -> None:
    """Play a game in the terminal (hotseat, or against bots with --seat): pick a numbered legal action or
    type its notation; `undo` takes back your last action, `save FILE` / `load FILE` keep a game, `q` stops."""
    from interpreter.runtime.game import new_game
    from interpreter.errors import RulesError

    rs = console.ruleset_or_exit(pack, variant)
    saved = None
    try:
        if load is not None:
            game, saved = terminal.load_saved(load, pack)
        else:
            game = new_game(rs, players, seed)
    except RulesError as exc:
        out.print(f"[bold red]error[/]: {escape(str(exc))}")
        raise typer.Exit(2)
    specs = terminal.saved_specs(game, saved)
    specs.update(terminal.seat_specs(seat or [], game))
    if moves is not None:
        terminal.play_moves(game, moves, log, specs)
        return
    game, specs = terminal.interactive(game, specs, pack)
    if game.is_terminal():
        terminal.final(game)
    terminal.save_log(game, log, specs)


@app.command()
def replay(
    log: Path = typer.Argument(..., help="A game written by `caput play --log`."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="Pack directory (default: the bundled pack)."),
    variant: Optional[List[Path]] = VariantOpt,
) -> None:
    """Show a game step by step: every action with the state after it, then the final scores."""
    from interpreter.play import savefile
    from interpreter.runtime.game import new_game
    from interpreter.errors import IllegalActionError, RulesError

    try:
        data = savefile.parse(savefile.read(log))
        table = data["state"].get("table")
        players, seed = data.get("players"), table.get("seed") if isinstance(table, dict) else None
        actions = data["state"].get("log")
        if type(players) is not int or type(seed) is not int:
            raise savefile.SaveError("it has no player count or no seed")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise savefile.SaveError("its log is not a list of actions")
        variants = savefile.header_variants(data)
    except savefile.SaveError as exc:
        reason = f"{log} is not a caput game log: {exc.reason}" if exc.kind == "invalid" else exc.describe(str(log))
        out.print(f"[bold red]error[/]: {escape(reason)}")
        raise typer.Exit(2)
    rs = console.ruleset_or_exit(pack, variant or variants)
    try:
        game = new_game(rs, players, seed)
    except RulesError as exc:
        out.print(f"[bold red]error[/]: {escape(str(log))} is not a caput game log: {escape(str(exc))}")
        raise typer.Exit(2)
    for n, action in enumerate(actions, 1):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            out.print(f"step {n}: [bold red]the log does not replay[/]: {escape(action)}: {escape(exc.reason)}")
            raise typer.Exit(1)
        out.print(f"--- step {n}: {action}", markup=False)
        out.print(terminal.summary(game), markup=False)
    if game.is_terminal():
        terminal.final(game)


@app.command()
def simulate(
    players: int = typer.Option(2, "--players", "-p", min=1, help="Players per game (1 = solo against the dummy)."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of games."),
    bots: str = typer.Option("greedy", "--bots", help="Bot per seat, comma-separated (one fills every seat): "
                             "random, greedy[:evaluation], planner[:evaluation[:width[:turns[:frontier[:ahead[:guesses[:end[:checks]]]]]]]], best (the pack's strongest), "
                             "mcts[:iterations], dummy."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game; game i uses seed + i."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="Pack directory (default: the bundled pack)."),
    variant: Optional[List[Path]] = VariantOpt,
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Local processes (default: every core)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786."),
    out_file: Optional[Path] = typer.Option(None, "--out", help="Write one record per game: .csv or .jsonl."),
    plots: Optional[Path] = typer.Option(None, "--plots", help="Folder for PNG plots (default: next to --out or --report, else none)."),
    report: Optional[Path] = typer.Option(None, "--report", help="Write a report: FILE.html (one page, plots inside) or FILE.md."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Play many games with bots and report scores, seat balance, win rates with 95% intervals, where the
    points come from, what gets picked and what never happens; --plots draws them, --report writes them up."""
    import json as _json

    from interpreter.content.labels import Labels
    from interpreter.play import plots as P
    from interpreter.play import report as R
    from interpreter.play.analysis import content_keys, summarize, summary_text

    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    runs.check_bots(bot_list, players)
    rs = console.ruleset_or_exit(pack, variant)
    name = Labels.of(rs).source
    records = runs.run_bot_games(pack, [str(v) for v in (variant or ())], players, games, bot_list, seed, workers, scheduler,
                        "games")
    summary = summarize(records, content_keys(rs))
    if out_file is not None:
        runs.write_records(records, out_file)
    folder = plots or (out_file.parent if out_file is not None else report.parent if report is not None else None)
    if folder is not None:
        stem = f"{report.stem}_" if report is not None and plots is None else ""
        drawn = [P.scores(P.seat_groups(records), folder / f"{stem}scores.png", f"{players} players, {games} games"),
                 P.sources(summary, folder / f"{stem}sources.png", name)]
        if players > 1:
            drawn.insert(1, P.win_rates(summary, folder / f"{stem}win_rates.png"))
        if summary["tiles"]:
            drawn.append(P.picks(summary, folder / f"{stem}picks.png", name))
        summary["plots"] = [str(p) for p in drawn]
    if report is not None:
        setup = R.Setup("simulate", f"{rs.pack_id} ({_pack_name(rs)})", _variant_titles(rs), players,
                        tuple(r for r in records[0]["bots"]) if records else tuple(bot_list), games, (seed, seed + games - 1))
        blocks = R.simulate_report(setup, summary, [Path(p) for p in summary.get("plots", ())], name)
        R.write(blocks, f"caput simulate: {_pack_name(rs)}", report)
    if as_json:
        out.print(_json.dumps(summary, indent=2), markup=False)
    else:
        out.print(summary_text(summary, name), markup=False)
        for p in summary.get("plots", ()):
            out.print(f"plot: {p}", markup=False)
        if report is not None:
            out.print(f"report: {report}", markup=False)


def _pack_name(rs) -> str:
    pack = rs.single("pack")
    return pack.name if pack is not None and pack.name else rs.pack_id


def _variant_titles(rs, skip: int = 0) -> tuple[str, ...]:
    """The ruleset's overlays (after the first ``skip``) as their file, name and description say them."""
    from ruamel.yaml import YAML

    titles = []
    for path in rs.variants[skip:]:
        try:
            data = YAML(typ="safe").load(Path(path).read_text(encoding="utf-8"))  # loaded and checked already
        except (OSError, ValueError):
            data = None
        said = [str(data.get(k)) for k in ("name", "description") if isinstance(data, dict) and data.get(k)]
        titles.append(f"{Path(path).stem}" + (f" ({': '.join(said)})" if said else ""))
    return tuple(titles)


@app.command()
def compare(
    variant: List[Path] = typer.Option(..., "--variant", "-v", help="Overlay(s) making the variant (on top of --base)."),
    base: Optional[List[Path]] = typer.Option(None, "--base", help="Overlay(s) making the base game (default: none)."),
    players: int = typer.Option(2, "--players", "-p", min=1),
    games: Optional[int] = typer.Option(None, "--games", "-n", min=2, help="Paired games (default: sized by --mdd)."),
    mdd: float = typer.Option(2.0, "--mdd", help="Minimum detectable difference in mean score, for sizing the run."),
    max_games: int = typer.Option(2000, "--max-games", help="Cap on the games the --mdd sizing may ask for."),
    bots: str = typer.Option("greedy", "--bots", help="Bot per seat, as for simulate; `best` plays the pack's strongest (slower)."),
    seed: int = typer.Option(0, "--seed"),
    pack: Optional[Path] = typer.Option(None, "--pack"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1),
    scheduler: Optional[str] = typer.Option(None, "--scheduler"),
    report: Path = typer.Option(Path("compare.md"), "--report", help="The report: FILE.md (plots beside it) or FILE.html (one page)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Compare a variant with the base game on paired seeds: mean score difference with a 95% interval,
    effect size, seat win-rate changes, per-source changes with intervals and the tiles whose pick rate moved;
    the verdict in one sentence; a report (Markdown or HTML) with the setup, the tables and the plots."""
    import json as _json

    from interpreter.play import stats
    from interpreter.play.analysis import compare as do_compare
    from interpreter.content.labels import Labels
    from interpreter.play import plots as P
    from interpreter.play import report as R
    from interpreter.play.analysis import compare_text

    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    runs.check_bots(bot_list, players)
    base_v = [str(v) for v in (base or ())]
    var_v = base_v + [str(v) for v in variant]
    console.ruleset_or_exit(pack, base_v)
    rs = console.ruleset_or_exit(pack, var_v)
    name = Labels.of(rs).source  # the variant's names: it may add records
    note = ""
    if games is None:  # a pilot run measures the spread of paired differences, then sizes the run
        pilot = 30
        a = runs.run_bot_games(pack, base_v, players, pilot, bot_list, seed, workers, scheduler, "pilot (base)")
        b = runs.run_bot_games(pack, var_v, players, pilot, bot_list, seed, workers, scheduler, "pilot (variant)")
        sd = do_compare(a, b)["score"]["sd"]
        need = stats.games_for_mdd(max(sd, 1e-9), mdd)
        games = max(pilot, min(need, max_games))
        note = f"; a pilot of {pilot} games (sd of differences {sd:.2f}) sized the run for a difference of {mdd:g}" + \
               (f" (needed {need}, capped at {max_games})" if need > max_games else "")
    a = runs.run_bot_games(pack, base_v, players, games, bot_list, seed, workers, scheduler, "base")
    b = runs.run_bot_games(pack, var_v, players, games, bot_list, seed, workers, scheduler, "variant")
    result = do_compare(a, b)
    folder, stem = report.parent, report.stem
    drawn = [P.differences(result, folder / f"{stem}_differences.png"),
             P.source_changes(result, folder / f"{stem}_sources.png", name)]
    setup = R.Setup("compare", f"{rs.pack_id} ({_pack_name(rs)})", _variant_titles(rs, len(base_v)), players,
                    tuple(a[0]["bots"]) if a else tuple(bot_list), games, (seed, seed + games - 1),
                    _variant_titles(rs)[: len(base_v)])
    title = f"{' + '.join(Path(v).stem for v in variant)} vs {' + '.join(Path(v).stem for v in base_v) or 'base game'}"
    R.write(R.compare_report(setup, result, drawn, name, note), f"caput compare: {title}", report)
    if as_json:
        out.print(_json.dumps({k: v for k, v in result.items() if k not in ("base", "variant")}, indent=2), markup=False)
    else:
        out.print(compare_text(result, note, name), markup=False)
        out.print(R.compare_verdict(result, name), markup=False)
        out.print(f"report: {report}  plots: {', '.join(str(p) for p in drawn)}", markup=False)


@app.command()
def render(
    state: Path = typer.Argument(..., help="A saved game (`caput play --log`, `save FILE`, or Game.to_json())."),
    output: Path = typer.Option(..., "--output", "-o", help="FILE.svg or FILE.png."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="Pack directory (default: the bundled pack)."),
    scale: float = typer.Option(1.0, "--scale", help="PNG scale factor."),
) -> None:
    """Draw the whole table of a saved game of any pack: its map, wheel, rows, grids and tracks, or its zones of cards
    and its spaces, and every player's board."""
    from interpreter.ui.render import render_png, render_svg

    game, _ = terminal.load_saved(state, pack)
    if output.suffix.lower() == ".png":
        try:
            output.write_bytes(render_png(game, scale))
        except (ImportError, OSError) as exc:
            out.print(f"[bold red]error[/]: PNG output needs cairosvg and the cairo library ({escape(str(exc))}); "
                      "write .svg instead")
            raise typer.Exit(2)
    elif output.suffix.lower() == ".svg":
        output.write_text(render_svg(game), encoding="utf-8")
    else:
        out.print(f"[bold red]error[/]: the output must end in .svg or .png, not {escape(output.name)}")
        raise typer.Exit(2)
    out.print(f"wrote {escape(str(output))}")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535),
    save_dir: Path = typer.Option(Path("caput-saves"), "--save-dir", help="Folder for saved games."),
    allow_host: Optional[List[str]] = typer.Option(None, "--allow-host", help="Another name requests may be addressed "
                                                   "to (repeatable); localhost, 127.0.0.1, [::1] and --host always are."),
    pack: Optional[Path] = typer.Option(None, "--pack", help="The pack to play (default: $CAPUT_PACK, else the bundled default)."),
) -> None:
    """Play in the browser: a local web server with the game page at http://HOST:PORT/. Requests addressed to
    any other name than a loopback one, --host or --allow-host are refused (no page of another site reaches it)."""
    import os

    from interpreter.ui.server import serve as run_server

    if pack is not None:
        if not (pack / "pack.yaml").is_file():
            out.print(f"[bold red]error[/]: {escape(str(pack))} is not a pack folder (it has no pack.yaml)")
            raise typer.Exit(2)
        os.environ["CAPUT_PACK"] = str(pack.resolve())  # what the server's sessions read the pack from

    run_server(host=host, port=port, save_dir=save_dir, allow_hosts=tuple(allow_host or ()))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        raise SystemExit(130)
