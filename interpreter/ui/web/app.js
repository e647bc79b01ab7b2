// The caput play page: plain JavaScript over the JSON API of interpreter/ui/server.py.
// No framework and no build step; everything is drawn with DOM calls from the game "view".
"use strict";

const SEAT_KINDS = ["human", "random", "greedy", "planner", "best", "mcts", "dummy"];
const GROUPS = [
  ["take", "Take an action tile"], ["act", "Main action"], ["bonus", "Wheel bonus"],
  ["buy", "Buy the extra action"], ["extra", "Extra action"], ["choose", "Choose"], ["pick", "Pick"],
  ["place", "Place"], ["plank", "Lay a plank"], ["resolve", "Resolve now"], ["seal", "Claim a seal"],
  ["use", "Use a record"], ["refresh", "Refresh a row"], ["do", "Any time"], ["discard", "Discard"],
  ["end", "End the turn"],
];

const COLLAPSIBLE = new Set(["refresh", "seal", "use", "do", "buy", "extra"]);

const $ = (id) => document.getElementById(id);

const ui = {
  gameId: null,
  view: null,          // the live view of the game
  replayStep: null,    // a step number while replaying a finished game, else null
  busy: false,
  boardSeq: 0,         // answers to older board requests are dropped
  paused: false,       // the bots wait (Step moves one)
  placing: null,       // a tile being placed: {options: its legal rotations at the place clicked, index}
  zoom: null,          // the part of the board shown: {x, y, w, h} in the drawing's units (null: all of it)
  drag: null,          // a drag of the board under way: where it started
  tipFor: null,        // the element whose record the tooltip shows
  botTimer: null,      // the next bot move, when one is to come
};

// the pause between two bot moves, in milliseconds, by the speed chosen
const SPEEDS = { slow: 1200, normal: 450, fast: 120, instant: 0 };

// ------------------------------------------------------------------ helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function errorText(status, data) {
  const detail = data && data.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {   // pydantic's list of problems (422)
    return detail.map((d) => `${(d.loc || []).slice(1).join(".") || "request"}: ${d.msg}`).join("; ");
  }
  return `the server answered ${status}`;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error(`cannot reach the server (${err.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(errorText(response.status, data));
    error.status = response.status;
    throw error;
  }
  return data;
}

function showMessage(text, kind) {
  const box = $("message");
  box.textContent = text;
  box.className = kind || "error";
  box.hidden = false;
}

function clearMessage() {
  const box = $("message");
  box.textContent = "";
  box.className = "";
  box.hidden = true;
}

async function busy(task) {
  if (ui.busy) return;
  ui.busy = true;
  document.body.classList.add("busy");
  try {
    await task();
  } catch (err) {
    showMessage(err.message, "error");
  } finally {
    ui.busy = false;
    document.body.classList.remove("busy");
  }
}

let NAMES = {};  // id -> display name, from the view (records, declared things, sources of points)

function words(text) {
  return NAMES[text] || String(text).replace(/_/g, " ");
}

function listOf(obj, skipZero) {
  const parts = [];
  for (const [key, value] of Object.entries(obj || {})) {
    if (skipZero && !value) continue;
    parts.push(`${words(key)} ${Array.isArray(value) ? value.join(",") : value}`);
  }
  return parts.join(", ") || "—";
}

// ------------------------------------------------------------------ the start form

function drawSeatKinds() {
  const box = $("seat-kinds");
  const players = Number($("players").value);
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", { text: "Seats" }));
  for (let i = 0; i < players; i++) {
    const select = el("select", { name: `seat-${i + 1}`, "data-seat": i + 1 },
      SEAT_KINDS.map((kind) => el("option", { value: kind, text: kind })));
    select.value = old[i] || (i === 0 ? "human" : "greedy");
    box.append(el("label", {}, `Seat ${i + 1} `, select));
  }
  if (players === 1) {
    box.append(el("p", { class: "muted", text: "Solo: the rulebook's dummy takes the second seat by itself." }));
  }
}

async function loadPack() {
  try {
    const pack = await api("GET", "/api/pack");
    $("pack-name").textContent = pack.name;
    document.title = `${pack.name} — caput`;
    const select = $("players");
    const chosen = Number(select.value);
    const options = [];
    for (let n = pack.players.min; n <= pack.players.max; n++) {
      options.push(el("option", { value: n, text: n === 1 ? "1 (solo)" : String(n) }));
    }
    select.replaceChildren(...options);
    select.value = String(Math.min(Math.max(chosen, pack.players.min), pack.players.max));
    drawSeatKinds();
  } catch (err) {
    showMessage(err.message, "error");
  }
}

async function loadVariants() {
  const box = $("variants");
  try {
    const variants = await api("GET", "/api/variants");
    box.replaceChildren(el("legend", { text: "Variants" }));
    if (!variants.length) box.append(el("p", { class: "muted", text: "This pack has no variants." }));
    for (const v of variants) {
      box.append(el("label", { class: "variant", title: v.description },
        el("input", { type: "checkbox", name: "variant", value: v.name }), ` ${v.title}`,
        v.description ? el("span", { class: "muted", text: ` — ${v.description}` }) : null));
    }
  } catch (err) {
    box.replaceChildren(el("legend", { text: "Variants" }), el("p", { class: "error", text: err.message }));
  }
}

async function startGame(event) {
  event.preventDefault();
  await busy(async () => {
    const players = Number($("players").value);
    const seats = [...$("seat-kinds").querySelectorAll("select")].map((s) => s.value);
    const variants = [...$("variants").querySelectorAll("input[name=variant]:checked")].map((c) => c.value);
    const body = { players, seats, variants, stepwise: true };   // the page shows every bot move
    const seedText = $("seed").value.trim();
    if (seedText !== "") body.seed = Number(seedText);
    clearMessage();
    const view = await api("POST", "/api/games", body);
    enterGame(view);
  });
}

function enterGame(view) {
  ui.gameId = view.id;
  ui.replayStep = null;
  $("setup").hidden = true;
  $("game").hidden = false;
  render(view);
}

// ------------------------------------------------------------------ drawing a view

function render(view) {
  const replaying = view.replay !== null && view.replay !== undefined;
  if (!replaying) ui.view = view;
  NAMES = view.names || {};
  if (ui.placing && (replaying || !ui.placing.options.every((a) => view.legal.some((l) => l.action === a)))) {
    ui.placing = null;   // the position moved on: the placement being shown is gone
  }
  drawPlacing();
  $("choosing").hidden = true;   // a new position: the choices listed are gone
  $("game-id").textContent = `game ${view.id} · seed ${view.seed}` +
    (view.variants.length ? ` · ${view.variants.join(", ")}` : "");
  drawStatus(view, replaying);
  drawFinal(view);
  drawBoard(view, replaying);
  drawTable(view);
  drawSeats(view);
  drawDecision(view);
  drawActions(view, replaying);
  drawLog(view);
  drawBotControls(view, replaying);
  if (!replaying) scheduleBots(view);
  drawControls(view, replaying);
  drawReplay(view);
}

function drawStatus(view, replaying) {
  const parts = [];
  if (replaying) parts.push(`Replay: step ${view.replay.step} of ${view.replay.total}`);
  parts.push(view.total_turns ? `Turn ${view.turn} of ${view.total_turns}` : `Turn ${view.turn + 1}`);
  if (view.round) parts.push(`round ${view.round}`);
  if (view.phase) parts.push(`phase ${words(view.phase)}`);
  if (view.era) parts.push(`era ${view.era}`);
  if (view.over) parts.push("the game is over");
  else if (view.current_seat) {
    parts.push(`seat ${view.current_seat} to act` + (view.to_act === "human" ? " (you)" : ` (${view.to_act})`));
  }
  if (view.table.taken_tile) parts.push(`tile taken: ${words(view.table.taken_tile)}`);
  $("status").textContent = parts.join(" · ");
  $("status").className = replaying ? "replaying" : "";
}

function byPoints(breakdown) {
  // the sources of a score, the largest first (what they are named is the view's names)
  return Object.fromEntries(Object.entries(breakdown || {}).sort((a, b) => b[1] - a[1]));
}

function drawFinal(view) {
  const box = $("final");
  if (!view.final) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const rows = view.final.scores.map((s) => el("li", {},
    el("strong", { text: `Seat ${s.seat}: ${s.score} points` }),
    el("span", { class: "muted", text: ` (${listOf(byPoints(s.breakdown))})` })));
  let verdict = "";
  if (view.final.solo) {
    const solo = view.final.solo;
    verdict = `Solo: ${solo.score} points, ${solo.good ? "over" : "not over"} the rulebook's good score of ${solo.good_score}` +
      (solo.title ? `; title: ${solo.title}` : "");
  } else if (view.final.winner) {
    verdict = `Winner: seat ${view.final.winner}`;
  }
  box.replaceChildren(el("h3", { text: "Final scores" }), el("ul", {}, rows), el("p", { id: "winner", text: verdict }));
}

async function drawBoard(view, replaying) {
  const board = $("board");
  const seq = ++ui.boardSeq;
  const step = replaying ? view.replay.step : view.log.length;
  let url = `/api/games/${encodeURIComponent(view.id)}/board.svg`;
  if (replaying) url += `?step=${step}`;
  else if (ui.placing) url += `?preview=${encodeURIComponent(ui.placing.options[ui.placing.index])}`;
  $("board-link").href = url;
  let svg = null;
  let note = null;
  try {
    const response = await fetch(url);
    if (response.ok) {
      svg = await response.text();
    } else {
      let data = null;
      try { data = await response.json(); } catch (err) { data = null; }
      note = errorText(response.status, data);
    }
  } catch (err) {
    note = `cannot fetch the board picture (${err.message})`;
  }
  if (seq !== ui.boardSeq) return;   // a newer view is being drawn
  if (svg !== null) {
    board.innerHTML = svg;   // our own server's drawing; scripts inside innerHTML never run
    board.classList.remove("unavailable");
    fitView();
    const legal = new Set(replaying ? [] : view.legal.map((a) => a.action));
    for (const node of board.querySelectorAll("[data-action]")) {
      node.classList.toggle("legal", legal.has(node.getAttribute("data-action")));
    }
    for (const node of board.querySelectorAll("[data-choices]")) {
      node.classList.toggle("legal", actionsNaming(node.getAttribute("data-choices"), replaying ? [] : view.legal).length > 0);
    }
  } else {
    board.replaceChildren(el("p", { class: "muted", text: `No board picture: ${note}` }));
    board.classList.add("unavailable");
  }
  board.dataset.step = String(step);
}

// ------------------------------------------------------------------ what a record is: a tooltip

const TIPS = new Map();   // record id -> its lines (or a promise of them), per game

function recordUnder(node) {
  const holder = node && node.closest ? node.closest("[data-record], [data-tile]") : null;
  if (!holder) return null;
  return { node: holder, id: holder.getAttribute("data-record") || holder.getAttribute("data-tile") };
}

async function showTip(event) {
  const found = recordUnder(event.target);
  if (!found || !found.id || !ui.gameId) return;
  const key = `${ui.gameId}/${found.id}`;
  if (!TIPS.has(key)) {
    TIPS.set(key, api("GET", `/api/games/${encodeURIComponent(ui.gameId)}/records/${encodeURIComponent(found.id)}`)
      .then((r) => r.lines, () => null));
  }
  const lines = await TIPS.get(key);
  if (!lines || ui.tipFor !== found.node) return;   // the pointer moved on meanwhile
  const tip = $("tip");
  tip.replaceChildren(el("strong", { text: lines[0] }), ...lines.slice(1).map((l) => el("div", { text: l.trim() })));
  tip.hidden = false;
  placeTip(event);
}

function placeTip(event) {
  const tip = $("tip");
  if (tip.hidden) return;
  const x = Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
  const y = event.clientY + 18 + tip.offsetHeight > window.innerHeight ? event.clientY - tip.offsetHeight - 10 : event.clientY + 18;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}

function tapTip(event) {
  const found = recordUnder(event.target);
  ui.tipFor = found ? found.node : null;
  $("tip").hidden = true;
  if (found) showTip(event);
}

function onPointerOver(event) {
  const found = recordUnder(event.target);
  const node = found ? found.node : null;
  if (node === ui.tipFor) return;
  ui.tipFor = node;
  $("tip").hidden = true;
  if (node) showTip(event);
}

// ------------------------------------------------------------------ zoom and pan (the SVG's viewBox)

function boardSvg() {
  return $("board").querySelector("svg");
}

function fullBox(svg) {
  const vb = svg.viewBox.baseVal;
  if (!svg.dataset.full) svg.dataset.full = [vb.x, vb.y, vb.width, vb.height].join(" ");
  const [x, y, w, h] = svg.dataset.full.split(" ").map(Number);
  return { x, y, w, h };
}

function fitView() {
  // a new drawing of the same table keeps the part shown; the whole table the first time
  const svg = boardSvg();
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const full = fullBox(svg);
  if (ui.zoom && (ui.zoom.full.w !== full.w || ui.zoom.full.h !== full.h)) ui.zoom = null;
  const z = ui.zoom || { ...full, full };
  svg.setAttribute("viewBox", `${z.x} ${z.y} ${z.w} ${z.h}`);
}

function setZoom(z) {
  const svg = boardSvg();
  if (!svg) return;
  const full = fullBox(svg);
  const w = Math.min(full.w, Math.max(full.w / 12, z.w));
  const h = w * (z.h / z.w);
  const x = Math.min(full.x + full.w - w / 2, Math.max(full.x - w / 2, z.x));
  const y = Math.min(full.y + full.h - h / 2, Math.max(full.y - h / 2, z.y));
  ui.zoom = { x, y, w, h, full };
  svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
}

function currentBox() {
  const svg = boardSvg();
  const vb = svg.viewBox.baseVal;
  return { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
}

function zoomBy(factor, cx, cy) {
  // zoom about a point of the board (in client pixels; the centre by default)
  const svg = boardSvg();
  if (!svg) return;
  const rect = svg.getBoundingClientRect();
  const z = currentBox();
  const scale = Math.max(z.w / rect.width, z.h / rect.height);   // drawing units per pixel ("meet")
  const px = cx === undefined ? 0.5 : (cx - rect.left) / rect.width;
  const py = cy === undefined ? 0.5 : (cy - rect.top) / rect.height;
  const ax = z.x + (z.w - rect.width * scale) / 2 + px * rect.width * scale;
  const ay = z.y + (z.h - rect.height * scale) / 2 + py * rect.height * scale;
  const w = z.w / factor;
  const h = z.h / factor;
  setZoom({ x: ax - (ax - z.x) / factor, y: ay - (ay - z.y) / factor, w, h });
}

function zoomFit() {
  ui.zoom = null;
  fitView();
}

function onWheel(event) {
  if (!boardSvg()) return;
  event.preventDefault();
  zoomBy(event.deltaY < 0 ? 1.25 : 0.8, event.clientX, event.clientY);
}

function onPointerDown(event) {
  if (!boardSvg() || event.button !== 0) return;
  ui.drag = { x: event.clientX, y: event.clientY, box: currentBox(), moved: false };
}

function onPointerMove(event) {
  const d = ui.drag;
  if (!d) return;
  const dx = event.clientX - d.x;
  const dy = event.clientY - d.y;
  if (!d.moved && Math.hypot(dx, dy) < 5) return;   // a click, not yet a drag
  d.moved = true;
  $("board").classList.add("dragging");
  const rect = boardSvg().getBoundingClientRect();
  const scale = Math.max(d.box.w / rect.width, d.box.h / rect.height);
  setZoom({ x: d.box.x - dx * scale, y: d.box.y - dy * scale, w: d.box.w, h: d.box.h });
}

function onPointerUp() {
  const d = ui.drag;
  $("board").classList.remove("dragging");
  if (d && d.moved) ui.suppressClick = true;   // the click that ends a drag is not a move
  ui.drag = null;
}

function actionsNaming(word, legal) {
  return legal.filter((a) => a.action.split(" ").slice(1).includes(word));
}

function showChoices(word) {
  // several legal actions name what was clicked: list them (a worker's space and its options, say)
  const options = actionsNaming(word, ui.view ? ui.view.legal : []);
  if (options.length === 1) {
    act(options[0].action);
    return;
  }
  if (!options.length) {
    showMessage(`${words(word)}: no legal action names it now`, "error");
    return;
  }
  $("choosing-text").textContent = `${words(word)}: ${options.length} ways`;
  $("choosing-options").replaceChildren(...options.map((a) => el("button", {
    type: "button", class: "action", "data-action": a.action, "data-record": a.record || null,
    onclick: () => { $("choosing").hidden = true; act(a.action); },
  }, a.text, el("code", { text: a.action }))));
  $("choosing").hidden = false;
}

function onBoardClick(event) {
  if (ui.suppressClick) {
    ui.suppressClick = false;
    return;
  }
  const choices = event.target.closest("[data-choices]");
  if (choices && $("board").contains(choices) && ui.replayStep === null) {
    showChoices(choices.getAttribute("data-choices"));
    return;
  }
  const target = event.target.closest("[data-action]");
  if (!target || !$("board").contains(target)) {
    tapTip(event);   // a record nothing acts on: a click or a tap says what it is
    return;
  }
  if (ui.replayStep !== null) return;
  const action = target.getAttribute("data-action");
  const legal = ui.view ? ui.view.legal.map((a) => a.action) : [];
  if (!legal.includes(action)) {
    showMessage(`${action}: not a legal action now`, "error");
    return;
  }
  if (/^place .+ rot \d+$/.test(action)) startPlacing(action);   // see the tile at each rotation first
  else act(action);
}

// ------------------------------------------------------------------ placing a tile: rotate, see, confirm

function startPlacing(action) {
  const at = action.replace(/ rot \d+$/, " rot ");
  const options = ui.view.legal.map((a) => a.action).filter((a) => a.startsWith(at));
  ui.placing = { options, index: Math.max(0, options.indexOf(action)) };
  drawPlacing();
  drawBoard(ui.view, false);
}

function drawPlacing() {
  const box = $("placing");
  if (!ui.placing) {
    box.hidden = true;
    return;
  }
  const action = ui.placing.options[ui.placing.index];
  const [, tile, where, rot] = action.match(/^place (\S+) at (\S+) rot (\d+)$/) || [null, action, "", ""];
  $("placing-text").textContent = `Place ${words(tile)} on ${where}, rotation ${rot} ` +
    `(${ui.placing.index + 1} of ${ui.placing.options.length} legal here): the board shows it so.`;
  $("placing-rotate").disabled = ui.placing.options.length < 2;
  box.hidden = false;
}

function rotatePlacing(by) {
  if (!ui.placing) return;
  const n = ui.placing.options.length;
  ui.placing.index = (ui.placing.index + by + n) % n;
  drawPlacing();
  drawBoard(ui.view, false);
}

function confirmPlacing() {
  if (!ui.placing) return;
  const action = ui.placing.options[ui.placing.index];
  ui.placing = null;
  drawPlacing();
  act(action);
}

function cancelPlacing() {
  if (!ui.placing) return;
  ui.placing = null;
  drawPlacing();
  drawBoard(ui.view, false);
}

function onKey(event) {
  if (!ui.placing || event.target.closest("input, select, textarea")) return;
  if (event.key === "r" || event.key === "R") rotatePlacing(event.shiftKey ? -1 : 1);
  else if (event.key === "Enter") confirmPlacing();
  else if (event.key === "Escape") cancelPlacing();
  else return;
  event.preventDefault();
}

function drawTable(view) {
  const t = view.table;
  const box = $("table-view");
  const parts = [];
  if (t.zones) {  // a pack on the generic core: its zones, spaces and dice
    for (const [zone, seen] of Object.entries(t.zones)) {
      const [name, owner] = zone.split("@");
      const label = owner === undefined ? words(name) : `${words(name)} of seat ${Number(owner) + 1}`;
      const shown = Array.isArray(seen) ? (seen.map((r) => (r ? words(r) : "—")).join(", ") || "empty") : `${seen.size} hidden`;
      parts.push(el("div", { class: "zone", "data-zone": zone }, el("strong", { text: `${label}: ` }), shown));
    }
    const taken = Object.entries(t.spaces || {}).filter(([, occ]) => occ.length)
      .map(([space, occ]) => `${words(space)}: ` + occ.map(([seat, piece]) => `seat ${seat + 1} ${words(piece)}`).join(", "));
    if (taken.length) parts.push(el("div", {}, el("strong", { text: "Spaces: " }), taken.join("; ")));
    if (Object.keys(t.dice || {}).length) parts.push(el("div", {}, el("strong", { text: "Dice: " }), listOf(t.dice)));
    box.replaceChildren(...parts);
    return;
  }
  parts.push(el("div", { class: "crane" }, el("strong", { text: "Crane: " }),
    t.crane.map((c) => el("span", { class: "crane-tile" + (c.flagged ? " flagged" : ""), "data-tile": c.tile,
      title: c.zone ? `zone ${c.zone}` : null, text: `${c.position}: ${words(c.tile)}${c.flagged ? " (+)" : ""}` }))));
  const tileSpan = (x) => (x ? el("span", { class: "record", "data-record": x, text: words(x) }) : "—");
  for (const [kind, row] of Object.entries(t.rows || {})) {
    const line = [...(row.regular || []).map(tileSpan), " | special ", ...(row.special || []).map(tileSpan)];
    parts.push(el("div", { class: "row", "data-row": kind }, el("strong", { text: `Row ${words(kind)}: ` }),
      ...line.flatMap((x, i) => (i ? [" ", x] : [x]))));
  }
  const built = Object.entries(t.city || {}).map(([site, e]) =>
    `${site}: ${e.tile}` + (e.owner ? ` (seat ${e.owner})` : ""));
  if (built.length) parts.push(el("div", {}, el("strong", { text: "City: " }), built.join(", ")));
  if (Object.keys(t.bridge || {}).length) parts.push(el("div", {}, el("strong", { text: "Bridge: " }), listOf(t.bridge)));
  if (t.later.length) parts.push(el("div", {}, el("strong", { text: "To resolve this turn: " }), t.later.join(", ")));
  const stacks = Object.entries(t.stacks || {}).map(([id, s]) => `${id} ${s.size}${s.face === "up" ? " (face up)" : ""}`);
  parts.push(el("details", {}, el("summary", { text: "Stacks" }), el("p", { class: "muted", text: stacks.join(", ") })));
  box.replaceChildren(...parts);
}

function drawSeats(view) {
  const box = $("seats");
  box.replaceChildren(...view.seats.map((s) => {
    const title = `Seat ${s.seat} · ${s.dummy ? "automatic dummy" : s.kind}`;
    return el("div", { class: "seat" + (s.current ? " current" : "") + ` seat-${s.seat}`, "data-seat": s.seat },
      el("h4", {}, title, el("span", { class: "score", text: `${s.score} points` })),
      el("div", {}, el("strong", { text: "Holdings: " }), listOf(s.holdings, true)),
      Object.keys(s.tracks).length ? el("div", {}, el("strong", { text: "Tracks: " }), listOf(s.tracks)) : null,
      Object.keys(s.grids).length ? el("div", {}, el("strong", { text: "Projects: " }),
        Object.entries(s.grids).map(([g, p]) => `${words(g)} row ${p[0]} col ${p[1]}`).join(", ")) : null,
      Object.keys(s.owned).length ? el("div", {}, el("strong", { text: "Owned: " }),
        Object.values(s.owned).flat().map(words).join(", ")) : null,
      Object.keys(s.area).length ? el("div", {}, el("strong", { text: "Own board: " }),
        Object.entries(s.area).map(([h, tile]) => `${h}: ${tile}`).join(", ")) : null,
      el("div", { class: "muted" }, "Free pieces: ", listOf(s.pieces_free)));
  }));
}

function drawDecision(view) {
  const box = $("decision");
  const d = view.decision;
  if (!d) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  // a long list of options is the buttons' (and the board's) to show, not this line's
  const options = !d.options ? `${d.count} hidden options`
    : d.options.length > 8 ? `${d.options.length} options: below, or on the board` : d.options.join(" | ");
  box.replaceChildren(el("strong", { text: `Seat ${d.seat} decides (${d.kind}): ` }), options);
}

function drawActions(view, replaying) {
  const box = $("actions");
  if (replaying || view.over) {
    box.replaceChildren();
    return;
  }
  if (!view.legal.length) {
    box.replaceChildren(el("p", { class: "muted", text: "Waiting: no human seat is to act." }));
    return;
  }
  const byVerb = new Map();
  for (const a of view.legal) {
    const verb = a.action.split(" ")[0];
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    byVerb.get(verb).push(a);
  }
  const known = new Set(GROUPS.map((g) => g[0]));
  const groups = GROUPS.filter(([verb]) => byVerb.has(verb));
  for (const verb of byVerb.keys()) if (!known.has(verb)) groups.push([verb, verb]);
  box.replaceChildren(el("h3", { text: `Seat ${view.current_seat}: your move` }), ...groups.map(([verb, label]) => {
    const buttons = byVerb.get(verb).map((a) => el("button", {
      type: "button", class: "action", "data-action": a.action, "data-record": a.record || null,
      onclick: () => act(a.action),
    }, a.text, el("code", { text: a.action })));
    // a long group folds away: refreshes and the like, and placements, which the board offers as well
    const onBoard = byVerb.get(verb).every((a) => /^place .+ rot \d+$/.test(a.action));   // hexes the board marks
    const many = (COLLAPSIBLE.has(verb) || onBoard) && buttons.length > 8;
    const body = el("div", { class: "buttons" }, buttons);
    const summary = onBoard ? `${label} (${buttons.length}): click a highlighted place on the board, or open the list`
      : `${label} (${buttons.length})`;
    return many
      ? el("details", { class: "group", "data-verb": verb }, el("summary", { text: summary }), body)
      : el("div", { class: "group", "data-verb": verb }, el("h4", { text: label }), body);
  }), ...notOffered(view));
}

// the entries of the menu offering nothing now, each with why: folded under one line naming them
function notOffered(view) {
  const missing = view.unavailable || [];
  if (!missing.length) return [];
  return [el("details", { id: "not-offered", class: "group", open: ui.whyOpen,
    ontoggle: (e) => { ui.whyOpen = e.target.open; } },
    el("summary", { text: missing.length > 3 ? `Not offered now (${missing.length}): open for why`
      : `Not offered now: ${missing.map((u) => u.name).join(", ")}` }),
    el("ul", {}, missing.map((u) => el("li", {}, el("strong", { text: u.name }), `: ${u.reason}`))))];
}

function drawLog(view) {
  const log = $("log");
  log.replaceChildren(...view.log.map((entry) => el("li", { "data-step": entry.step },
    el("span", { class: "who", text: entry.seat ? `seat ${entry.seat}` : "" }), " ",
    el("span", { class: "said", text: entry.text || entry.action }), " ",
    el("code", { class: "notation", text: entry.action }))));
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------ bots, move by move

function botToAct(view) {
  return view && !view.over && view.to_act && view.to_act !== "human";
}

function drawBotControls(view, replaying) {
  const anyBot = view.seats.some((s) => s.kind !== "human" && !s.dummy);
  $("bot-controls").hidden = replaying || view.over || !anyBot;
  $("pause").textContent = ui.paused ? "Resume" : "Pause";
  $("pause").setAttribute("aria-pressed", ui.paused ? "true" : "false");
  $("bot-step").disabled = !ui.paused || !botToAct(view);
}

function scheduleBots(view) {
  clearTimeout(ui.botTimer);
  ui.botTimer = null;
  if (ui.paused || ui.replayStep !== null || !botToAct(view)) return;
  ui.botTimer = setTimeout(stepBot, SPEEDS[$("speed").value] ?? SPEEDS.normal);
}

async function stepBot() {
  ui.botTimer = null;
  if (!ui.gameId || ui.replayStep !== null || !botToAct(ui.view)) return;
  if (ui.busy) {   // a request is under way: try again after it
    scheduleBots(ui.view);
    return;
  }
  const gameId = ui.gameId;
  await busy(async () => {
    const view = await api("POST", `/api/games/${encodeURIComponent(gameId)}/bot`);
    if (gameId === ui.gameId && ui.replayStep === null) render(view);
  });
}

function togglePause() {
  ui.paused = !ui.paused;
  if (ui.view) {
    drawBotControls(ui.view, ui.replayStep !== null);
    scheduleBots(ui.view);
  }
}

function botStep() {
  if (ui.paused && botToAct(ui.view)) stepBot();
}

function drawControls(view, replaying) {
  $("type-action").hidden = replaying || view.over || !view.legal.length;
  const undo = $("undo");
  undo.disabled = replaying || !view.log.length;
  undo.title = view.undo.possible ? "take back your last action (and the bots' answers)" : view.undo.reason;
  undo.classList.toggle("blocked", !view.undo.possible);
}

function drawReplay(view) {
  const panel = $("replay");
  const live = ui.view;
  if (!live || !live.over) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const slider = $("replay-slider");
  slider.max = String(live.steps);
  const step = ui.replayStep === null ? live.steps : ui.replayStep;
  slider.value = String(step);
  $("replay-label").textContent = `step ${step} of ${live.steps}`;
}

// ------------------------------------------------------------------ commands

function act(action) {
  return busy(async () => {
    clearMessage();
    const view = await api("POST", `/api/games/${encodeURIComponent(ui.gameId)}/actions`, { action });
    render(view);
  });
}

function undo() {
  return busy(async () => {
    clearMessage();
    const view = await api("POST", `/api/games/${encodeURIComponent(ui.gameId)}/undo`);
    render(view);
    showMessage("Undone.", "info");
  });
}

function save(event) {
  event.preventDefault();
  return busy(async () => {
    clearMessage();
    const name = $("save-name").value.trim();
    const result = await api("POST", `/api/games/${encodeURIComponent(ui.gameId)}/save`, { name });
    showMessage(`Saved as ${result.name} (${result.steps} steps).`, "info");
    await refreshSaves();
  });
}

async function refreshSaves() {
  const list = $("saves");
  try {
    const saves = await api("GET", "/api/saves");
    if (!saves.length) {
      list.replaceChildren(el("li", { class: "muted", text: "No saved games yet." }));
      return;
    }
    list.replaceChildren(...saves.map((s) => el("li", { "data-save": s.name },
      el("button", { type: "button", class: "load", "data-save": s.name, onclick: () => loadGame(s.name) }, "Load"),
      " ", el("strong", { text: s.name }), el("span", { class: "muted", text: ` saved ${s.saved}` }))));
  } catch (err) {
    list.replaceChildren(el("li", { class: "error", text: err.message }));
  }
}

function loadGame(name) {
  return busy(async () => {
    clearMessage();
    const view = await api("POST", "/api/load", { name, stepwise: true });
    enterGame(view);
    showMessage(`Loaded ${name}.`, "info");
  });
}

function typedAction(event) {
  event.preventDefault();
  const text = $("action-text").value.trim();
  if (!text) return;
  act(text).then(() => {
    if ($("message").hidden) $("action-text").value = "";
  });
}

function showReplay(step) {
  const live = ui.view;
  if (!live) return;
  step = Math.max(0, Math.min(live.steps, step));
  busy(async () => {
    clearMessage();
    if (step === live.steps) {
      ui.replayStep = null;
      render(live);
      return;
    }
    const view = await api("GET", `/api/games/${encodeURIComponent(ui.gameId)}/replay/${step}`);
    ui.replayStep = step;
    render(view);
  });
}

function currentStep() {
  return ui.replayStep === null ? (ui.view ? ui.view.steps : 0) : ui.replayStep;
}

function newGame() {
  clearTimeout(ui.botTimer);
  ui.gameId = null;
  ui.view = null;
  ui.replayStep = null;
  clearMessage();
  $("game").hidden = true;
  $("setup").hidden = false;
  $("game-id").textContent = "";
}

// ------------------------------------------------------------------ wiring

function init() {
  $("players").addEventListener("change", drawSeatKinds);
  $("new-game-form").addEventListener("submit", startGame);
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("wheel", onWheel, { passive: false });
  document.addEventListener("pointerover", onPointerOver);
  document.addEventListener("pointermove", placeTip);
  $("board").addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  $("zoom-in").addEventListener("click", () => zoomBy(1.5));
  $("zoom-out").addEventListener("click", () => zoomBy(1 / 1.5));
  $("zoom-fit").addEventListener("click", zoomFit);
  $("undo").addEventListener("click", undo);
  $("save-form").addEventListener("submit", save);
  $("type-action").addEventListener("submit", typedAction);
  $("new-game").addEventListener("click", newGame);
  $("pause").addEventListener("click", togglePause);
  $("placing-rotate").addEventListener("click", () => rotatePlacing(1));
  $("choosing-cancel").addEventListener("click", () => { $("choosing").hidden = true; });
  $("placing-confirm").addEventListener("click", confirmPlacing);
  $("placing-cancel").addEventListener("click", cancelPlacing);
  document.addEventListener("keydown", onKey);
  $("bot-step").addEventListener("click", botStep);
  $("speed").addEventListener("change", () => ui.view && scheduleBots(ui.view));
  $("refresh-saves").addEventListener("click", refreshSaves);
  $("replay-slider").addEventListener("change", (e) => showReplay(Number(e.target.value)));
  $("replay-first").addEventListener("click", () => showReplay(0));
  $("replay-prev").addEventListener("click", () => showReplay(currentStep() - 1));
  $("replay-next").addEventListener("click", () => showReplay(currentStep() + 1));
  $("replay-last").addEventListener("click", () => showReplay(ui.view ? ui.view.steps : 0));
  drawSeatKinds();
  Promise.all([loadPack(), loadVariants(), refreshSaves()]).finally(() => {
    document.body.dataset.ready = "1";   // the form is complete (tests wait for this)
  });
}

document.addEventListener("DOMContentLoaded", init);
