// troef serve: the lobby, the table's socket and replays. The table is drawn
// by drawing.js (TroefDrawing, shared with the HTML report) from the seat's
// View: the fields most games share (hand, trick, trump, dealer, to_act,
// hand_sizes), the rest in words (the server's lines).
"use strict";

const { el, cardFace } = TroefDrawing;
const $ = (id) => document.getElementById(id);
let games = [];
let socket = null;
let state = { seat: 0, labels: [], teams: [], lastTrick: null, showLast: false, view: null };
// A replay being shown: its frames, the one drawn, where it came from.
let replay = null;

// -- the lobby ---------------------------------------------------------------

function game() { return games.find((g) => g.name === $("game").value); }

function fillSeats() {
  const g = game();
  $("seats").replaceChildren(...g.seats.map((n) => el("option", { value: n }, String(n))));
  fillPlaces();
  fillOptions();
}

function fillPlaces() {
  const g = game();
  const n = Number($("seats").value);
  $("seat").replaceChildren(...[...Array(n).keys()].map((s) => el("option", { value: s }, `seat ${s}`)));
  const bots = $("bots");
  bots.replaceChildren(el("legend", {}, "Bots"));
  for (let i = 1; i < n; i++) {
    const select = el("select", { class: "bot", "aria-label": `bot ${i}` });
    for (const b of g.bots) select.append(el("option", { value: b }, b));
    select.append(el("option", { value: "person" }, "a person (invited by a link)"));
    select.value = g.bots.includes("random") ? "random" : g.bots[0];
    const label = el("label", {}, `other seat ${i} `);
    label.append(select);
    bots.append(label);
  }
}

function fillOptions() {
  const g = game();
  const box = $("options");
  box.replaceChildren(el("legend", {}, "Options"));
  const short = $("short").checked;
  for (const o of g.options) {
    const value = short && o.name in g.check_options ? g.check_options[o.name] : o.default;
    let input;
    if (o.choices) {
      input = el("select");
      for (const c of o.choices) input.append(el("option", { value: JSON.stringify(c) }, String(c)));
      input.value = JSON.stringify(value);
    } else {
      input = el("input", { size: 8 });
      input.value = JSON.stringify(value);
    }
    input.dataset.option = o.name;
    input.title = o.doc;
    const label = el("label", {}, `${o.name} `);
    label.append(input);
    box.append(label);
  }
}

function settings() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    let value;
    try { value = JSON.parse(input.value); } catch { value = input.value; }
    options[input.dataset.option] = value;
  }
  return {
    type: "new",
    game: $("game").value,
    seat: Number($("seat").value),
    bots: [...document.querySelectorAll("select.bot")].map((s) => s.value),
    options,
    seed: Number($("seed").value),
    name: $("name").value,
    on_leave: $("on-leave").value,
    grace: Number($("grace").value),
  };
}

// -- the table ---------------------------------------------------------------

// The table as TroefDrawing reads it: whose view, where each seat sits.
function tableOf() {
  const you = state.seat === null ? null : state.seat;
  return { labels: state.labels, teams: state.teams, seat: you ?? 0, you, mark: "(you)" };
}

function draw(message) {
  state.view = message.view;
  if (message.last_trick) state.lastTrick = message.last_trick;
  state.frame = { ...message, last_trick: state.lastTrick };
  TroefDrawing.draw($("play"), tableOf(), state.frame, {
    showLast: state.showLast,
    reasons: message.reasons,
    play: replay ? null : play,
  });
}

function log(lines) {
  const list = $("log");
  for (const line of lines || []) list.append(el("li", {}, line));
  list.scrollTop = list.scrollHeight;
}

function play(action) {
  $("message").textContent = "";
  socket.send(JSON.stringify({ type: "move", action }));
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "invited":
      $("lobby").hidden = true;
      $("recorded").hidden = true;
      $("play").hidden = false;
      $("invites").hidden = false;
      $("invite-links").replaceChildren(...Object.entries(message.links).map(([seat, path]) => {
        const item = el("li", {}, `seat ${seat}: `);
        const url = location.origin + path;
        item.append(el("a", { href: url, class: "invite", "data-seat": seat }, url));
        return item;
      }));
      break;
    case "start":
      $("invites").hidden = true;
      replay = null;
      $("replay-controls").hidden = true;
      $("recorded").hidden = true;
      state = { seat: message.seat, labels: message.labels, teams: message.teams, lastTrick: null, showLast: false, view: null };
      $("title").textContent = message.title;
      $("lobby").hidden = true;
      $("play").hidden = false;
      $("log").replaceChildren();
      log(message.lines);
      draw(message);
      break;
    case "update":
      log(message.lines);
      draw(message);
      break;
    case "turn":
      draw(message);
      $("message").textContent = "your turn";
      document.querySelector("#hand .legal, #actions button")?.focus();
      break;
    case "refused":
      $("message").textContent = `${cardFace(message.action)}: ${message.reason}`;
      break;
    case "over":
      log(message.lines);
      $("hand").replaceChildren();
      $("actions").replaceChildren();
      $("message").textContent = "";
      $("result").hidden = false;
      $("result-line").textContent = state.labels.map((l, s) => `${l} ${message.scores[s]} (rank ${message.ranks[s]})`).join(", ");
      $("result-table").textContent = message.table;
      $("result-db").textContent = message.database;
      $("result-match").textContent = message.match;
      $("replay-this").dataset.database = message.database.split("/").pop();
      $("replay-this").dataset.match = message.match;
      break;
    case "error":
      $("lobby").hidden = false;
      $("lobby-error").textContent = message.message;
      break;
  }
}

function connect(first) {
  $("lobby-error").textContent = "";
  $("result").hidden = true;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/table`;
  socket = new WebSocket(url);
  socket.addEventListener("open", () => socket.send(JSON.stringify(first)));
  socket.addEventListener("message", onMessage);
}

function start(event) {
  event.preventDefault();
  connect(settings());
}

// -- replays -----------------------------------------------------------------

async function listRecorded() {
  const found = await (await fetch("/api/recorded")).json();
  $("recorded-list").replaceChildren(...found.flatMap((db) => db.matches.map((m) => {
    const item = el("li");
    const b = el("button", { type: "button", class: "open-replay" }, `${m.game}: ${m.seating.join(", ")} (${db.database})`);
    b.addEventListener("click", () => openReplay(db.database, m.match, 0));
    item.append(b);
    return item;
  })));
}

// live: a match of the tournament that troef serve DB follows (its /live
// page links here), in place of a database of the results folder.
async function openReplay(database, match, seat, live = false) {
  const query = new URLSearchParams(live ? { live: "1", match, seat } : { database, match, seat });
  const answer = await fetch(`/api/replay?${query}`);
  const data = await answer.json();
  if (!answer.ok) { $("lobby-error").textContent = data.error; return; }
  replay = { ...data, database, live, at: 0 };
  state = { seat: data.seat, labels: data.labels, teams: data.teams, lastTrick: null, showLast: false, view: null };
  $("title").textContent = data.seat === null ? `${data.title}: replay, the referee's view`
    : `${data.title}: replay as ${data.labels[data.seat]}`;
  $("lobby").hidden = true;
  $("recorded").hidden = true;
  $("result").hidden = true;
  $("play").hidden = false;
  $("replay-controls").hidden = false;
  $("replay-seat").replaceChildren(el("option", { value: "referee" }, "the referee (every hand)"),
    ...data.labels.map((l, s) => el("option", { value: s }, `seat ${s}: ${l}`)));
  $("replay-seat").value = data.seat === null ? "referee" : String(data.seat);
  showFrame(0);
}

function showFrame(at) {
  const frames = replay.frames;
  replay.at = Math.max(0, Math.min(frames.length - 1, at));
  state.lastTrick = null;
  for (let i = 0; i <= replay.at; i++) if (frames[i].last_trick) state.lastTrick = frames[i].last_trick;
  $("log").replaceChildren();
  for (let i = 0; i <= replay.at; i++) log(frames[i].lines);
  draw({ ...frames[replay.at], last_trick: state.lastTrick });
  $("frame-number").textContent = `move ${replay.at} of ${frames.length - 1}`;
}

function step(kind, by) {
  // By move; by trick: to the next (or previous) frame that finishes one;
  // by deal: to the first frame of the next deal, or back to the start of
  // this deal (of the one before when already there).
  const frames = replay.frames;
  const last = frames.length - 1;
  let at = replay.at;
  if (kind === "move") return showFrame(at + by);
  if (kind === "trick") {
    do { at += by; } while (at > 0 && at < last && !frames[at].trick_done);
    return showFrame(at);
  }
  const dealAt = (i) => frames[i].deal;
  if (by > 0) {
    const deal = dealAt(at);
    while (at < last && dealAt(at) === deal) at += 1;
  } else {
    const start = (i) => { while (i > 0 && dealAt(i - 1) === dealAt(i)) i -= 1; return i; };
    at = start(at) === at && at > 0 ? start(at - 1) : start(at);
  }
  showFrame(at);
}

function leaveReplay() {
  replay = null;
  $("replay-controls").hidden = true;
  $("play").hidden = true;
  $("lobby").hidden = false;
  $("recorded").hidden = false;
}

async function init() {
  games = await (await fetch("/api/games")).json();
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  const query = new URLSearchParams(location.search);
  if (query.get("table")) {
    // A link to a seat at a table someone set up: sit down there.
    $("lobby").hidden = true;
    $("recorded").hidden = true;
    connect({ type: "join", table: query.get("table"), seat: Number(query.get("seat")) });
  }
  if (query.get("replay")) {
    // A link to a recorded match (the live page's latest matches).
    openReplay(query.get("database") || "", query.get("replay"), query.get("seat") || "referee",
      query.get("live") === "1");
  }
  const wanted = query.get("game");
  if (wanted && games.some((g) => g.name === wanted)) $("game").value = wanted;
  fillSeats();
  $("game").addEventListener("change", fillSeats);
  $("seats").addEventListener("change", fillPlaces);
  $("short").addEventListener("change", fillOptions);
  $("lobby").addEventListener("submit", start);
  $("last-trick-button").addEventListener("click", () => {
    state.showLast = !state.showLast;
    if (state.frame) draw(state.frame);
  });
  TroefDrawing.arrowKeys($("hand"));
  TroefDrawing.arrowKeys($("actions"));
  // In a replay, the arrow keys step by move where they move no focus.
  document.addEventListener("keydown", (e) => {
    if (!replay || e.defaultPrevented || ["SELECT", "INPUT"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") step("move", 1);
    if (e.key === "ArrowLeft") step("move", -1);
  });
  $("list-recorded").addEventListener("click", listRecorded);
  for (const b of document.querySelectorAll("[data-step]")) {
    b.addEventListener("click", () => step(b.dataset.step, Number(b.dataset.by)));
  }
  $("replay-seat").addEventListener("change", () => openReplay(replay.database, replay.match, $("replay-seat").value, replay.live));
  $("leave-replay").addEventListener("click", leaveReplay);
  $("replay-this").addEventListener("click", () => openReplay($("replay-this").dataset.database, $("replay-this").dataset.match, state.seat));
  $("again").addEventListener("click", () => {
    $("play").hidden = true;
    $("lobby").hidden = false;
    $("recorded").hidden = false;
  });
  document.body.dataset.ready = "1";
}

init();
