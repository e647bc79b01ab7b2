"""The play page in a real browser: Playwright driving Debian's Chromium against the server in a thread.

Playwright's own browser downloads are never used: the test launches /usr/bin/chromium and skips
(with the reason) when it is not installed; set CAPUT_REQUIRE_BROWSER=1 to make that a failure.
Screenshots go to the test's tmp_path; their paths are printed (`pytest -s` shows them).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SEED = 4  # human vs greedy: the bot's first turn reveals no hidden information, so undo crosses it


def _need(condition: bool, reason: str) -> None:
    if not condition:
        if os.environ.get("CAPUT_REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture
def pack_env(request, monkeypatch):
    """The pack the server plays: the default one, or the folder a test names (indirect parametrization)."""
    from interpreter.ui import sessions

    pack = getattr(request, "param", None)
    if pack:
        monkeypatch.setenv("CAPUT_PACK", str(Path(__file__).resolve().parent.parent / pack))
    for cached in (sessions.pack_variants, sessions._ruleset_cached):
        cached.cache_clear()
    yield pack
    for cached in (sessions.pack_variants, sessions._ruleset_cached):
        cached.cache_clear()


@pytest.fixture
def server_url(tmp_path, pack_env):
    pytest.importorskip("fastapi", reason="the web server needs fastapi")
    uvicorn = pytest.importorskip("uvicorn", reason="the web server needs uvicorn")
    from interpreter.ui.server import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # a free port, held until uvicorn takes the socket over
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(tmp_path / "saves"), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def page(server_url):
    _need(CHROMIUM.exists(), f"{CHROMIUM} is not installed (apt-get install chromium); "
                             "Playwright's own browsers are deliberately not downloaded")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs the playwright package")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        pg.errors = []
        pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
        # script errors only: refused requests (400, 409) are part of the test and logged by the browser
        pg.on("console", lambda msg: msg.type == "error" and not msg.text.startswith("Failed to load resource")
              and pg.errors.append(msg.text))
        pg.goto(server_url + "/")
        pg.wait_for_selector("body[data-ready='1']")
        yield pg
        context.close()
        browser.close()


class Shots:
    def __init__(self, page, folder: Path):
        self.page, self.folder, self.paths = page, folder, []

    def __call__(self, name: str) -> Path:
        path = self.folder / f"{len(self.paths) + 1:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.paths.append(path)
        return path


def start_two_players(page, seat_1: str, seat_2: str, seed: int) -> None:
    """Start a 2-player game from the form: who plays each seat, and the seed."""
    page.select_option("#players", "2")
    page.select_option("#seat-kinds select[data-seat='1']", seat_1)
    page.select_option("#seat-kinds select[data-seat='2']", seat_2)
    page.fill("#seed", str(seed))
    page.click("#start")


def log_length(page) -> int:
    return page.locator("#log li").count()


def board_state(page) -> str:
    """What the board shows: the SVG when the server draws one, else the text panels."""
    if page.locator("#board svg").count():
        return page.inner_html("#board")
    return page.inner_text("#table-view") + page.inner_text("#seats") + page.inner_text("#status")


def click_and_wait(page, selector: str, expect_log: int | None = None, grow: bool = True) -> str:
    """Click an element, wait for the log and the board to show the new step; the board's new state."""
    before_log, before_board = log_length(page), board_state(page)
    button = page.locator(selector).first
    action = button.get_attribute("data-action")
    button.click()
    # The log and the board are read in one check: when bots move after the click, the board's
    # picture of the click's own step can be superseded before it is ever shown.
    grown = f"> {before_log}" if expect_log is None else f"=== {expect_log}"
    page.wait_for_function(
        f"""(() => {{
            const n = document.querySelectorAll('#log li').length;
            const board = document.querySelector('#board');
            return n {grown} && board && board.dataset.step === String(n);
        }})()"""
    )
    n = log_length(page)
    page.wait_for_function("!document.body.classList.contains('busy')")
    after = board_state(page)
    assert after != before_board, f"the board did not change after {action or selector}"
    if grow:
        assert n > before_log
        assert action is None or action in page.locator("#log li").nth(before_log).inner_text()
    return after


def test_play_undo_save_and_load_in_the_browser(page, tmp_path):
    shots = Shots(page, tmp_path)
    assert page.locator("#variants input[type=checkbox]").count() >= 1  # filled from /api/variants
    assert page.inner_text("#pack-name") not in ("", "caput")  # the pack's name, from /api/pack

    # the start form: 2 players, seat 2 the greedy bot
    page.select_option("#players", "2")
    page.select_option("#seat-kinds select[data-seat='2']", "greedy")
    page.select_option("#seat-kinds select[data-seat='1']", "human")
    page.fill("#seed", str(SEED))
    shots("start-form")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#board[data-step='0']")
    assert log_length(page) == 0
    assert "seat 1 to act" in page.inner_text("#status")
    assert page.locator("#seats .seat").count() == 2
    if page.locator("#board svg").count() == 0:  # no renderer: the page says so and shows text instead
        assert "No board picture" in page.inner_text("#board")
    shots("new-game")

    # take a tile: by clicking it on the drawn crane (the board marks what may be clicked)
    assert page.locator("#board [data-action^='take ']").count() >= 1
    click_and_wait(page, "#board [data-action^='take ']", expect_log=1)
    assert "take " in page.inner_text("#log")
    shots("took-a-tile")

    # perform an action: it asks a choice
    click_and_wait(page, "#actions button[data-action^='act ']", expect_log=2)
    page.wait_for_selector("#decision:not([hidden])")
    assert "decides" in page.inner_text("#decision")
    shots("performed-an-action")

    # answer the choice (and any that follow)
    while page.locator("#actions button[data-action^='choose ']").count():
        click_and_wait(page, "#actions button[data-action^='choose ']")
    assert page.locator("#decision").is_hidden()
    shots("answered-the-choice")
    steps_before_end = log_length(page)

    # end the turn: the greedy bot plays its turn, then it is seat 1 again
    click_and_wait(page, "#actions button[data-action='end']")
    page.wait_for_function("document.querySelector('#status').textContent.includes('seat 1 to act')")
    after_end = log_length(page)
    assert after_end > steps_before_end + 1
    assert "seat 2" in page.locator("#log li").nth(after_end - 1).inner_text()
    shots("ended-the-turn")

    # an illegal typed action shows the engine's reason in #message and changes nothing
    page.fill("#action-text", "take no_such_tile")
    page.click("#type-action button[type=submit]")
    page.wait_for_selector("#message:not([hidden])")
    assert "illegal action" in page.inner_text("#message")
    assert page.locator("#message").is_visible()
    assert log_length(page) == after_end
    shots("illegal-action-message")

    # undo: back to before the human's `end`, the bot's moves included
    page.click("#undo")
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {steps_before_end}")
    page.wait_for_selector(f"#board[data-step='{steps_before_end}']")
    assert log_length(page) < after_end
    assert page.locator("#actions button[data-action='end']").count() == 1
    shots("undone")

    # save under a name
    page.fill("#save-name", "browser_game")
    page.click("#save")
    page.wait_for_selector("#saves li[data-save='browser_game']")
    assert "Saved as browser_game" in page.inner_text("#message")
    saved_log = page.inner_text("#log")
    game_id = page.inner_text("#game-id")

    # a bad save name is refused, visibly
    page.fill("#save-name", "../evil")
    page.click("#save")
    page.wait_for_function("document.querySelector('#message').textContent.includes('save name')")
    assert not (tmp_path / "evil.json").exists() and not (tmp_path / "saves" / "evil.json").exists()

    # move on, then load the save: the game is back where it was saved, under a new id
    click_and_wait(page, "#actions button[data-action='end']")
    page.click("#saves button[data-save='browser_game']")
    page.wait_for_function("document.querySelector('#message').textContent.includes('Loaded browser_game')")
    page.wait_for_selector(f"#board[data-step='{steps_before_end}']")
    assert page.inner_text("#log") == saved_log
    assert page.inner_text("#game-id") != game_id
    assert page.locator("#actions button[data-action='end']").count() == 1
    shots("loaded")

    # nothing to undo in a freshly loaded game: the reason is shown
    page.click("#undo")
    page.wait_for_function("document.querySelector('#message').textContent.includes('nothing to undo')")

    # clicking an element of the board that carries data-action applies that action
    page.evaluate("""() => {
        const board = document.getElementById('board');
        const svg = board.querySelector('svg') || board.appendChild(
            document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
        const spot = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        spot.setAttribute('x', '0'); spot.setAttribute('y', '0');
        spot.setAttribute('width', '400'); spot.setAttribute('height', '400');
        spot.setAttribute('data-action', 'end'); spot.setAttribute('id', 'test-spot');
        svg.prepend(spot);
    }""")
    page.dispatch_event("#test-spot", "click")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {steps_before_end}")
    assert "end" in page.locator("#log li").nth(steps_before_end).inner_text()
    shots("board-click")

    assert page.errors == [], page.errors
    for path in shots.paths:
        assert path.is_file() and path.stat().st_size > 0, path
        print(f"screenshot: {path}")


def test_a_finished_game_can_be_replayed_step_by_step(page, tmp_path):
    shots = Shots(page, tmp_path)
    start_two_players(page, "random", "random", 3)
    page.wait_for_selector("#bot-controls:not([hidden])")
    page.select_option("#speed", "instant")  # the bots' moves are shown one by one: as fast as they come
    page.wait_for_selector("#final:not([hidden])", timeout=240_000)
    assert "Winner: seat" in page.inner_text("#final")
    page.wait_for_selector("#replay:not([hidden])")
    total = log_length(page)
    assert total > 100 and page.locator("#actions button").count() == 0
    shots("finished")
    page.click("#replay-first")
    # the status first: the board may still be at step 0 from the game's start while its later pictures were
    # superseded by the bots' next moves
    page.wait_for_function("document.querySelector('#status').innerText.includes('Replay: step 0')")
    page.wait_for_selector("#board[data-step='0']")
    assert log_length(page) == 0
    page.click("#replay-next")
    page.wait_for_selector("#board[data-step='1']")
    assert log_length(page) == 1
    page.locator("#replay-slider").fill(str(total // 2))  # sets the value and fires `change`
    page.wait_for_selector(f"#board[data-step='{total // 2}']")
    assert log_length(page) == total // 2
    shots("replay-middle")
    page.click("#replay-last")
    page.wait_for_selector(f"#board[data-step='{total}']")
    assert log_length(page) == total and "Replay" not in page.inner_text("#status")
    assert page.errors == [], page.errors
    for path in shots.paths:
        assert path.is_file() and path.stat().st_size > 0, path
        print(f"screenshot: {path}")


def test_the_page_works_without_the_board_picture(page, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "interpreter.ui.render", None)  # as if the render package did not exist
    page.fill("#seed", str(SEED))
    page.click("#start")
    page.wait_for_selector("#board[data-step='0']")
    assert "No board picture" in page.inner_text("#board") and "interpreter/ui/render/" in page.inner_text("#board")
    assert page.locator("#board svg").count() == 0
    click_and_wait(page, "#actions button[data-action^='take ']", expect_log=1)  # the text panels change instead
    assert "No board picture" in page.inner_text("#board")
    path = Shots(page, tmp_path)("no-board-picture")
    assert path.stat().st_size > 0 and page.errors == []
    print(f"screenshot: {path}")


def test_bots_move_one_at_a_time_with_a_speed_a_pause_and_a_step(page, tmp_path):
    shots = Shots(page, tmp_path)
    start_two_players(page, "greedy", "greedy", 4)
    page.wait_for_selector("#bot-controls:not([hidden])")
    page.select_option("#speed", "slow")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 1")  # the first move is shown alone
    page.click("#pause")
    assert page.inner_text("#pause") == "Resume"
    page.wait_for_function("!document.body.classList.contains('busy')")
    paused_at = log_length(page)
    page.wait_for_timeout(2500)  # two slow moves' time: nothing moves while paused
    assert log_length(page) == paused_at and not page.locator("#final").is_visible()
    page.click("#bot-step")
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {paused_at + 1}")
    page.wait_for_selector(f"#board[data-step='{paused_at + 1}']")  # the board follows each move
    first = page.locator("#log li").first.inner_text()
    assert first.startswith("seat 1") and "take the action tile" in first  # the step in words, then its notation
    shots("paused-after-a-step")
    page.click("#pause")  # resume
    page.select_option("#speed", "fast")
    page.wait_for_function(f"document.querySelectorAll('#log li').length >= {paused_at + 4}")
    assert page.errors == [], page.errors
    for path in shots.paths:
        print(f"screenshot: {path}")


def test_a_tile_is_placed_by_clicking_the_board_after_seeing_its_rotations(page, tmp_path):
    shots = Shots(page, tmp_path)
    start_two_players(page, "human", "greedy", SEED)
    page.wait_for_selector("#board[data-step='0']")
    # an upgrade costs nothing: take an upgrade tile, perform Upgrade, pick a tile of the row
    for prefix in ("take tile_upgrade", "act upgrade", "pick upgrade"):
        for _ in range(4):  # a choice may come first (a wheel bonus, say): answer it
            if page.locator(f"#actions button[data-action^='{prefix}']").count():
                break
            click_and_wait(page, "#actions button[data-action^='choose ']")
        click_and_wait(page, f"#actions button[data-action^='{prefix}']")
    page.wait_for_selector("#board [data-action^='place ']")
    steps = log_length(page)
    spot = page.locator("#board [data-action^='place ']").first
    first = spot.get_attribute("data-action")
    before = page.inner_html("#board")
    spot.click()
    page.wait_for_selector("#placing:not([hidden])")
    page.wait_for_function("!document.body.classList.contains('busy')")
    assert log_length(page) == steps  # nothing is placed yet
    assert "preview=" in page.get_attribute("#board-link", "href")
    text = page.inner_text("#placing-text")
    assert "rotation " + first.rsplit(" ", 1)[1] in text and "legal here" in text
    page.wait_for_function("(b) => document.getElementById('board').innerHTML !== b", arg=before)
    shots("placing-preview")
    seen = page.inner_html("#board")
    page.keyboard.press("r")  # the next rotation, drawn
    page.wait_for_function("(b) => document.getElementById('board').innerHTML !== b", arg=seen)
    rotated = page.inner_text("#placing-text")
    assert rotated != text
    shots("placing-rotated")
    chosen = page.evaluate("() => ui.placing.options[ui.placing.index]")
    page.click("#placing-confirm")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {steps}")
    assert chosen in page.locator("#log li").nth(steps).inner_text()
    assert page.locator("#placing").is_hidden()
    shots("placed")
    assert page.errors == [], page.errors
    for path in shots.paths:
        print(f"screenshot: {path}")


def test_the_board_zooms_and_pans_and_a_drag_is_no_click(page, tmp_path):
    shots = Shots(page, tmp_path)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.fill("#seed", str(SEED))
    page.click("#start")
    page.wait_for_selector("#board[data-step='0'] svg")

    def box() -> list[float]:
        return [float(v) for v in page.get_attribute("#board svg", "viewBox").split()]

    full = box()
    page.click("#zoom-in")
    page.click("#zoom-in")
    zoomed = box()
    assert zoomed[2] < full[2] / 2 and zoomed[3] < full[3] / 2  # 1.5 x 1.5
    shots("zoomed-in")
    board = page.locator("#board").bounding_box()
    cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 200, cy - 100, steps=5)
    page.mouse.up()
    moved = box()
    assert moved[0] > zoomed[0] and moved[1] > zoomed[1] and moved[2] == pytest.approx(zoomed[2])  # dragged: moved
    assert log_length(page) == 0  # the drag's release clicked nothing
    page.mouse.wheel(0, -300)  # the wheel zooms in about the pointer
    page.wait_for_function(f"Number(document.querySelector('#board svg').getAttribute('viewBox').split(' ')[2]) < {moved[2]}")
    # a move redraws the board: the part shown stays
    shown = box()
    # hovering a record says what it is: name, kind, effects in English
    page.hover("#actions button[data-record^='tile_']")
    page.wait_for_selector("#tip:not([hidden])")
    assert "/" in page.inner_text("#tip strong")  # an action tile: "<action> / <action>"
    click_and_wait(page, "#actions button[data-action^='take ']", expect_log=1)
    assert box() == shown
    page.click("#zoom-fit")
    assert box() == full
    page.hover("#board svg [data-tile^='upgrade_']")  # a tile of a row, on the board
    page.wait_for_function("document.querySelector('#tip strong') && "
                           "document.querySelector('#tip strong').textContent.startsWith('Upgrade')")
    assert "bonus:" in page.inner_text("#tip")
    shots("tooltip")
    shots("fit")
    assert page.errors == [], page.errors
    for path in shots.paths:
        print(f"screenshot: {path}")


@pytest.mark.parametrize("pack_env", ["content/praga", "content/caylus_magna_carta", "content/lorenzo_il_magnifico"],
                         indirect=True)
def test_a_whole_game_of_every_bundled_pack_by_clicking(page, pack_env, tmp_path):
    """Seat 1 is played by clicking (the board's pieces when they are marked, else the visible buttons; a tile is
    placed at the rotation first shown), seat 2 by the random bot, to the end of the game."""
    shots = Shots(page, tmp_path)
    start_two_players(page, "human", "random", 11)
    page.wait_for_selector("#board svg [id^='board-']")  # the table is drawn, seats and all
    page.wait_for_selector("#bot-controls:not([hidden])")
    page.select_option("#speed", "instant")
    shots("start")
    clicks = board_clicks = 0
    told_why = False
    while clicks < 1500:
        page.wait_for_function("!document.body.classList.contains('busy') && (!document.querySelector('#final')."
                               "hidden || document.querySelectorAll('#actions button.action').length > 0)",
                               timeout=120_000)
        if page.locator("#final").is_visible():
            break
        if not told_why and page.locator("#not-offered").count():  # what the menu does not offer, and why
            page.click("#not-offered summary")
            reasons = page.locator("#not-offered li").all_inner_texts()
            assert reasons and all(": " in r for r in reasons), reasons
            told_why = True
            shots("not-offered")
        n = log_length(page)
        page.wait_for_selector(f"#board[data-step='{n}']")
        marked = page.locator("#board [data-action].legal")
        buttons = page.locator("#actions button.action:visible")
        if marked.count() and (clicks % 3 == 0 or not buttons.count()):  # now and then (and a folded placement) by the board
            marked.first.click()
            board_clicks += 1
            if page.locator("#placing").is_visible():  # a tile: placed as first shown
                page.click("#placing-confirm")
        else:
            buttons.first.click()
        clicks += 1
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {n}")
        if clicks == 12:
            shots("in-play")
    assert page.locator("#final").is_visible(), f"no end after {clicks} clicks"
    assert board_clicks > 0 and "points" in page.inner_text("#final")
    assert told_why
    page.wait_for_function("!document.body.classList.contains('busy')")
    page.wait_for_selector(f"#board[data-step='{log_length(page)}']")  # the final board drawn
    record = page.locator("#board svg [data-tile]:not([data-action])").first
    record.scroll_into_view_if_needed()  # (a scroll moves the page under the pointer, which hovers something else)
    page.wait_for_timeout(300)
    record.click()  # a click or a tap on a record nothing acts on says what it is
    from interpreter.content.labels import record_help
    from interpreter.content.ruleset import load_ruleset

    first = record_help(load_ruleset(pack_env), record.get_attribute("data-tile"))[0]
    page.wait_for_function("(t) => document.querySelector('#tip:not([hidden]) strong') && "
                           "document.querySelector('#tip strong').textContent === t", arg=first)
    shots("final")
    assert page.errors == [], page.errors
    for path in shots.paths:
        print(f"screenshot: {path}")
