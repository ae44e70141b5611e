// The page of `ludolex serve`: draws what the server says a seat sees, and sends its answers.
// A click on the board or on a card picks what it names (its targets); the options that take every
// pick are the candidates; one left, and every value of it picked, is the answer. Clicks that make
// no option are sent to the server, which says which rule refuses them.
// The page is opened by a link the server printed, `/?token=SECRET`: every request carries the secret,
// and the server answers only about the seats it grants.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CSS_COLOURS = { orange1: "orange", magenta: "#b0399b", cyan: "#1b9aaa", yellow: "#d4a106", green: "#3c8d40" };
const TOKEN = new URLSearchParams(location.search).get("token") || "";
let table = null;   // the game, its board and the seats this link may see (GET /api/table)
let seat = null;    // whose view is shown
let state = null;   // the game as that seat sees it (GET /api/state)
let picks = [];     // the targets of each click so far, toward an answer
let places = {};    // location -> {x, y}
let cell = 10;      // the size of a location on the board

let pending = 0;    // requests under way: the page is busy until the last one is answered

async function api(path, body) {
  pending += 1;
  document.body.dataset.busy = "1";
  try {
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const response = await fetch(path, body === undefined ? { headers } :
      { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  } finally {
    pending -= 1;
    document.body.dataset.busy = pending ? "1" : "0";
  }
}

function element(tag, attributes = {}, text = null, namespace = null) {
  const made = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  if (text !== null) made.textContent = text;
  return made;
}

function colour(owner) {
  if (!owner || !table.colours[owner]) return "#8a8a8a";
  const named = table.colours[owner];
  return CSS_COLOURS[named] || named;
}

// An owner's mark (a letter), shown beside their colour so that colour is never the only cue.
function mark(owner) {
  return (owner && table.marks && table.marks[owner]) || "";
}

function badge(owner) {
  const made = element("span", { class: "mark", title: owner || "" }, mark(owner));
  made.style.background = colour(owner);
  return made;
}

function seatName(key) {
  if (key === "(all)") return "all (debug)";
  if (key === "(spectator)") return "spectator";
  if (table.mode === "replay") return key;
  return key + (table.humans.includes(key) ? " (you)" : " (bot)");
}

async function start() {
  table = await api("/api/table");
  seat = table.seat;
  document.title = `${table.title} · ludolex`;
  $("title").textContent = table.title;
  $("mode").textContent = table.mode === "replay" ? "replay" : "play";
  for (const key of table.seats) $("seat").append(element("option", { value: key }, seatName(key)));
  $("seat").value = seat;
  $("seat").addEventListener("change", () => { seat = $("seat").value; refresh(); });
  drawBoard();
  if (table.mode === "replay") {
    $("replay").hidden = false;
    $("steps").textContent = `of ${table.steps}`;
    $("step").max = $("scrub").max = table.steps;
  }
  await refresh();
}

async function refresh() {
  show(await api(`/api/state?seat=${encodeURIComponent(seat)}`));
}

// ---- the board --------------------------------------------------------------------------------
function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  const locations = table.board.locations;
  if (!locations.length) { board.setAttribute("hidden", ""); return; }
  for (const place of locations) places[place.name] = place;
  cell = 12;
  for (const a of locations) {  // each location as large as the room round it allows (a grid's squares alike)
    a.cell = 20;
    for (const b of locations) if (a !== b) a.cell = Math.min(a.cell, Math.hypot(a.x - b.x, a.y - b.y));
    cell = Math.min(cell, a.cell);
  }
  if (table.board.shape !== "graph") for (const a of locations) a.cell = cell;
  const lines = element("g", { class: "connections" }, null, SVG);
  for (const [from, to, kind] of table.board.connections) {
    const a = places[from], b = places[to];
    if (table.board.shape === "grid" && kind !== "orthogonal") continue;  // a grid's squares say it
    lines.append(element("line", { class: `connection ${kind}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y }, null, SVG));
  }
  board.append(lines);
  for (const place of locations) {
    const group = element("g", { class: "location", "data-targets": `loc:${place.name}`, "data-location": place.name }, null, SVG);
    const title = Object.entries(place.attributes).map(([k, v]) => `${k}: ${v}`).join("\n");
    group.append(element("title", {}, `${place.name}${title ? "\n" + title : ""}`, SVG));
    let shape;
    const size = place.cell;
    if (table.board.shape === "grid") {
      const side = size * 0.94;
      shape = element("rect", { class: "shape", x: place.x - side / 2, y: place.y - side / 2, width: side, height: side, rx: .6 }, null, SVG);
    } else {
      shape = element("circle", { class: "shape", cx: place.x, cy: place.y, r: size * 0.45 }, null, SVG);
    }
    if (place.colour) shape.style.fill = place.colour;  // the table description's colour: a clearing's suit
    group.append(shape);
    const label = place.label || place.name;
    group.append(element("text", { class: "name", x: place.x, y: place.y - size * 0.3, "text-anchor": "middle",
                                   "font-size": Math.min(1.6, (size * 0.9 * 1.8) / Math.max(6, label.length)) }, label, SVG));
    group.append(element("g", { class: "pieces" }, null, SVG));
    board.append(group);
  }
  const top = Math.min(0, ...locations.map((p) => p.y - p.cell * 0.5 - 1));
  const bottom = Math.max(...locations.map((p) => p.y + p.cell * 0.6)) + 2;
  board.setAttribute("viewBox", `0 ${top} 100 ${Math.min(100, bottom) - top}`);
}

function pieceName(seen) {
  return seen.kind || seen.back;
}

// Consecutive alike components (same kind or back, owner, face) shown once, with their count.
function grouped(items) {
  const groups = [];
  for (const seen of items) {
    const last = groups[groups.length - 1];
    if (last && pieceName(last.seen) === pieceName(seen) && last.seen.text === seen.text && last.seen.owner === seen.owner
        && !!last.seen.face_down === !!seen.face_down) {
      last.count += 1;
      if (seen.id) last.ids.push(seen.id);
    } else {
      groups.push({ seen, count: 1, ids: seen.id ? [seen.id] : [] });
    }
  }
  return groups;
}

function componentTargets(ids, seen, where) {
  return [...ids.map((id) => `comp:${id}`), ...(seen.kind ? [`kind:${seen.kind}`] : []), where].join(" ");
}

// A location's stacks, top first: the server's, read through the table description, else alike
// neighbours counted here.
function stacksOf(seen, name) {
  if (seen.stacks) return seen.stacks[name].map((g) => ({ seen: g, count: g.count, ids: g.ids, text: g.text }));
  const items = Array.isArray(seen.zones[name]) ? seen.zones[name] : [];
  return grouped(items).reverse().map((stack) => {
    const named = stack.seen.face_down ? `(${pieceName(stack.seen)})` : pieceName(stack.seen);
    return { ...stack, text: `${stack.count > 1 ? stack.count + "× " : ""}${named}` };
  });
}

function drawPieces(seenState) {
  for (const group of document.querySelectorAll("#board .location")) {
    const name = group.dataset.location, place = places[name], layer = group.querySelector(".pieces");
    layer.replaceChildren();
    const stacks = stacksOf(seenState, name), room = place.cell;
    const width = room * 0.84, height = Math.min(2.1, (room * 0.62) / Math.max(1, stacks.length));
    stacks.forEach((stack, i) => {
      const seen = stack.seen;
      const piece = element("g", {
        class: `piece${i === 0 ? " top" : ""}${seen.face_down ? " face-down" : ""}`,
        "data-targets": componentTargets(stack.ids, seen, `loc:${name}`),
        "data-kind": pieceName(seen), "data-owner": seen.owner || "",
      }, null, SVG);
      const y = place.y - room * 0.2 + i * height, left = place.x - width / 2, size = Math.min(1.5, height * 0.75);
      piece.append(element("rect", { x: left, y, width, height: height * 0.92, rx: .4, fill: colour(seen.owner) }, null, SVG));
      let textLeft = left + .5;
      if (mark(seen.owner)) {  // the owner's mark on a white disc: a cue besides the colour
        const r = height * 0.36;
        piece.append(element("circle", { class: "mark", cx: left + r + .25, cy: y + height * 0.46, r }, null, SVG));
        piece.append(element("text", { class: "mark", x: left + r + .25, y: y + height * 0.46 + size * 0.35,
                                       "text-anchor": "middle", "font-size": size }, mark(seen.owner), SVG));
        textLeft = left + 2 * r + .6;
      }
      const fits = Math.max(3, Math.floor((left + width - textLeft) / (size * 0.55)));  // characters the piece holds
      const text = stack.text.length > fits ? stack.text.slice(0, fits - 1) + "…" : stack.text;
      piece.append(element("text", { x: textLeft, y: y + height * 0.7, "font-size": size }, text, SVG));
      piece.append(element("title", {}, [stack.text, seen.owner, ...stack.ids].filter(Boolean).join("\n"), SVG));
      layer.append(piece);
    });
  }
}

// ---- the zones off the board: hands as cards ---------------------------------------------------
function drawZones(zones, described) {
  const byOwner = new Map([["table", []]]);
  for (const player of table.players) byOwner.set(player, []);
  if (described) {  // the boards the table description makes: each player's zones, then the table's
    byOwner.clear();
    for (const [owner, listed] of described.boards) {
      byOwner.set(owner === null ? "table" : owner === "" ? "more" : owner, listed.map((zone) => [zone, zones[zone]]));
    }
  } else {
    for (const [zone, items] of Object.entries(zones)) {
      if (zone in places) continue;
      const owner = zone.includes("/") ? zone.split("/")[1] : "table";
      if (!byOwner.has(owner)) byOwner.set(owner, []);
      byOwner.get(owner).push([zone, items]);
    }
  }
  const box = $("zones");
  box.replaceChildren();
  for (const [owner, list] of byOwner) {
    if (!list.length) continue;
    const panel = element("div", { class: "owner", "data-owner": owner });
    const player = table.players.includes(owner);
    panel.style.borderTop = `4px solid ${player ? colour(owner) : "#999"}`;
    const heading = element("h3", {}, owner === seat ? `${owner} (you)` : owner);
    if (player && mark(owner)) heading.prepend(badge(owner), " ");
    panel.append(heading);
    const empty = [];
    for (const [zone, items] of list) {
      const name = zone.split("/")[0];
      const count = Array.isArray(items) ? items.length : items.hidden;
      if (!count) { empty.push(name); continue; }
      const line = element("div", { class: "zone", "data-zone": zone });
      line.append(element("span", { class: "zone-name", "data-targets": `zone:${zone}` }, `${name} (${count})`));
      const cards = element("div", { class: "cards" });
      if (!Array.isArray(items)) {
        cards.append(element("span", { class: "hidden-count" }, `${items.hidden} hidden`));
        for (const seen of items.shown || []) {  // revealed to this seat alone
          cards.append(element("span", { class: "card shown", title: seen.id }, `shown to you: ${seen.text || pieceName(seen)}`));
        }
      } else {
        for (const { seen, count, ids } of grouped(items)) {
          const props = seen.props && Object.keys(seen.props).length ? "\n" + JSON.stringify(seen.props) : "";
          const card = element("span", {
            class: `card${seen.id ? "" : " back"}${seen.face_down ? " face-down" : ""}`,
            "data-targets": componentTargets(ids, seen, `zone:${zone}`),
            title: ids.length ? ids.join(" ") + props : "face down",
          }, (count > 1 ? `${count}× ` : "") + (seen.text || pieceName(seen)));
          card.style.borderColor = colour(seen.owner);
          if (seen.owner && seen.owner !== owner && mark(seen.owner)) card.prepend(badge(seen.owner), " ");
          cards.append(card);
        }
      }
      line.append(cards);
      panel.append(line);
    }
    if (empty.length) panel.append(element("div", { class: "zone-name" }, `empty: ${empty.join(", ")}`));
    box.append(panel);
  }
}

function drawVariables(variables) {
  const rows = Object.entries(variables).map(([name, value]) => {
    const row = element("tr");
    row.append(element("td", {}, name), element("td", {}, typeof value === "object" ? JSON.stringify(value) : String(value)));
    return row;
  });
  $("variables").replaceChildren(...rows);
}

// The scores of each player, as the table description lists them.
function drawScores(described) {
  const box = $("scores");
  box.replaceChildren();
  box.hidden = !(described && table.scores && table.scores.length);
  if (box.hidden) return;
  const head = element("tr");
  head.append(element("th", {}, "player"), ...table.scores.map((label) => element("th", {}, label)));
  box.append(head);
  for (const row of described.scores) {
    const line = element("tr", { "data-player": row.player });
    const name = element("td", { class: "player" });
    name.append(badge(row.player), " ", row.player);
    name.style.color = colour(row.player);
    line.append(name, ...row.values.map((value) => element("td", {}, value)));
    box.append(line);
  }
}

// ---- the decision, and answering it by clicks ---------------------------------------------------
function mine() {
  return state && state.decision && state.decision.yours && Array.isArray(state.decision.options);
}

function fits(option, chosen) {  // each pick taken by a different value of the option
  const values = option.targets;
  const place = (i, used) => {
    if (i === chosen.length) return true;
    for (let v = 0; v < values.length; v++) {
      if (!used.has(v) && values[v].some((t) => chosen[i].includes(t))) {
        used.add(v);
        if (place(i + 1, used)) return true;
        used.delete(v);
      }
    }
    return false;
  };
  return place(0, new Set());
}

function inOrder(option, chosen) {  // the picks taken by values in the order of the option's values
  let v = 0;
  for (const pick of chosen) {
    while (v < option.targets.length && !option.targets[v].some((t) => pick.includes(t))) v++;
    if (v === option.targets.length) return false;
    v++;
  }
  return true;
}

function candidates(chosen) {
  const fitting = state.decision.options.filter((o) => fits(o, chosen));
  const ordered = fitting.filter((o) => inOrder(o, chosen));
  return ordered.length ? ordered : fitting;
}

function markCandidates() {
  const found = mine() ? candidates(picks) : [];
  const shown = new Set(found.map((o) => o.index));
  for (const item of document.querySelectorAll("#options li")) {
    const index = Number(item.dataset.index);
    item.classList.toggle("candidate", picks.length > 0 && shown.has(index));
    item.classList.toggle("out", picks.length > 0 && !shown.has(index));
  }
  const targets = new Set(found.flatMap((o) => o.targets.flat()));
  for (const node of document.querySelectorAll("#board .location, #zones .card")) {
    const hit = node.dataset.targets.split(" ").some((t) => targets.has(t) && !t.startsWith("kind:"));
    node.classList.toggle("target", mine() && hit);
  }
  $("picked").replaceChildren();
  if (picks.length) {
    const named = (pick) => ["loc:", "kind:", "comp:", "zone:"].map((sort) => pick.find((t) => t.startsWith(sort))).find(Boolean);
    $("picked").append(`picked: ${picks.map((pick) => named(pick).split(":")[1]).join(", ")} `);
    const clear = element("button", { id: "clear" }, "clear");
    clear.addEventListener("click", () => { picks = []; markCandidates(); });
    $("picked").append(clear);
  }
}

async function pick(targets) {
  const chosen = picks.concat([targets]);
  const found = candidates(chosen);
  if (!found.length) return explain({ picks: chosen });
  picks = chosen;
  const valued = (o) => o.targets.filter((t) => t.length).length;
  if (alike(found, picks) && valued(found[0]) <= picks.length) return choose(found[0].index);
  markCandidates();
}

// Whether the options differ only by which component of a clicked group they take (three chips
// alike, drawn as one): then any of them is the answer.
function alike(found, chosen) {
  const clicked = new Set(chosen.flat().filter((t) => t.startsWith("comp:")));
  const shape = (o) => JSON.stringify(o.targets.map((ts) => ts.filter((t) => !clicked.has(t))));
  return found.every((o) => shape(o) === shape(found[0]));
}

function drawDecision(decision) {
  $("options").replaceChildren();
  $("range").hidden = true;
  if (!decision) { $("asked").textContent = ""; return; }
  const who = decision.group.length > 1 ? `${decision.group.join(" or ")} (any of you)` : decision.player;
  if (!decision.yours) {
    $("asked").textContent = table.mode === "replay" ? "" : `waiting for ${who}: ${decision.name}`;
    return;
  }
  $("asked").textContent = `${who}, ${decision.name}:` + (decision.title ? ` ${decision.title}` : "");
  if (decision.range) {
    $("range").hidden = false;
    $("number").min = decision.range.from;
    $("number").max = decision.range.to;
    $("number").value = decision.range.from;
    return;
  }
  for (const option of decision.options) {
    const item = element("li", { "data-index": option.index });
    const button = element("button", {}, option.text || option.label);
    if (option.text) button.append(" ", element("code", { class: "label" }, option.label));
    button.addEventListener("click", () => choose(option.index));
    item.append(button);
    $("options").append(item);
  }
  if (decision.cut) $("options").append(element("li", {}, `... and ${decision.cut} more (type one to answer it)`));
}

async function choose(index) {
  try {
    show(await api("/api/choose", { seat, index }));
  } catch (error) {
    say(error.message);
  }
}

async function explain(asked) {
  try {
    const data = await api("/api/why", { seat, ...asked });
    say(data.answers.map((a) => (a.label ? `why not \`${a.label}\`?\n` : "") + a.lines.join("\n")).join("\n\n"));
  } catch (error) {
    say(error.message);
  }
}

function say(text) {
  $("why-answer").hidden = !text;
  $("why-answer").textContent = text || "";
}

// ---- the rest of the page -------------------------------------------------------------------------
function show(seen) {
  state = seen;
  picks = [];
  $("debug-banner").hidden = seat !== "(all)" || table.mode === "replay";
  $("turns").textContent = seen.table && seen.table.status ? seen.table.status : `turn ${seen.turns}`;
  drawScores(seen.table);
  if (table.board.locations.length) drawPieces(seen);
  drawZones(seen.zones, seen.table);
  drawVariables(seen.variables);
  drawDecision(seen.decision);
  markCandidates();
  const log = $("log");
  log.replaceChildren(...seen.log.map((entry, i) => element("li", { "data-step": i + 1 },
    `${entry.player} ${entry.decision}: ${entry.label}` + (entry.text ? ` (${entry.text})` : ""))));
  log.scrollTop = log.scrollHeight;
  $("result").hidden = !seen.result;
  $("result").textContent = seen.result || "";
  $("error").hidden = !seen.error;
  $("error").textContent = seen.error || "";
  $("undo").hidden = !seen.can_undo;
  if (table.mode === "replay") {
    $("step").value = $("scrub").value = seen.step;
    $("next").textContent = seen.next ? `next: ${seen.next.player} ${seen.next.decision}: ${seen.next.label}` : "the end";
  }
  document.body.dataset.shown = String(Number(document.body.dataset.shown || 0) + 1);
}

let asked = 0;      // the replay steps asked for so far: an answer to an older one, arriving late, is not shown

async function goto(step) {
  const number = ++asked;
  const seen = await api("/api/goto", { step: Math.max(0, Math.min(table.steps, step)), seat });
  if (number === asked) show(seen);
}

document.addEventListener("click", (event) => {
  const clicked = event.target.closest("#board [data-targets], #zones [data-targets]");
  if (!clicked || !mine()) return;
  event.stopPropagation();
  pick(clicked.dataset.targets.split(" ").filter(Boolean));
});
$("why-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const label = $("why-label").value.trim();
  if (label) explain({ label });
});
$("answer-number").addEventListener("click", () => {
  const number = Number($("number").value);
  const { from } = state.decision.range;
  choose(number - from);
});
$("undo").addEventListener("click", async () => {
  try {
    const data = await api("/api/undo", { seat });
    show(data);
    say(data.said);
  } catch (error) {
    say(error.message);
  }
});
$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => goto(state.step - 1));
$("forward").addEventListener("click", () => goto(state.step + 1));
$("last").addEventListener("click", () => goto(table.steps));
$("step").addEventListener("change", () => goto(Number($("step").value)));
$("scrub").addEventListener("change", () => goto(Number($("scrub").value)));
document.addEventListener("keydown", (event) => {
  if (table && table.mode === "replay" && event.target.tagName !== "INPUT") {
    if (event.key === "ArrowLeft") goto(state.step - 1);
    if (event.key === "ArrowRight") goto(state.step + 1);
  }
});

start().catch((error) => say(error.message));
