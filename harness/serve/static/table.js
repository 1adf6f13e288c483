// troef serve: the lobby and one generic card table, drawn from the seat's View.
// Reads the fields most games share (hand, trick, trump, dealer, to_act,
// scores, hand_sizes) and shows the rest in words (the server's lines).
"use strict";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = "CDHS";
const $ = (id) => document.getElementById(id);
let games = [];
let socket = null;
let state = { seat: 0, labels: [], teams: [], lastTrick: null, showLast: false, view: null };
// A replay being shown: its frames, the one drawn, where it came from.
let replay = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function suitOf(card) { return card.slice(-1); }

function cardFace(card) {
  const suit = suitOf(card);
  if (!(suit in SUITS)) return card;
  const rank = card.slice(0, -1);
  return (rank === "T" ? "10" : rank) + SUITS[suit];
}

function cardNode(card, tag = "span") {
  const node = el(tag, { class: "card", "data-card": card });
  node.textContent = cardFace(card);
  if (suitOf(card) === "H" || suitOf(card) === "D") node.classList.add("red");
  return node;
}

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

function sortedHand(hand) {
  const groups = {};
  hand.forEach((card, i) => {
    const s = SUIT_ORDER.indexOf(suitOf(card));
    const key = s < 0 ? SUIT_ORDER.length : s;
    (groups[key] ||= []).push([card, i]);
  });
  return Object.keys(groups).sort((a, b) => a - b).map((k) => groups[k]);
}

function seatPlace(seat) {
  // The person at the bottom, the others clockwise around the table.
  const n = state.labels.length;
  const angle = Math.PI / 2 + (2 * Math.PI * ((seat - state.seat + n) % n)) / n;
  return { left: 50 + 42 * Math.cos(angle), top: 50 + 40 * Math.sin(angle) };
}

function drawSeats(view) {
  const ring = $("seats-ring");
  ring.replaceChildren();
  state.labels.forEach((label, seat) => {
    const box = el("div", { class: "seat", "data-seat": seat });
    const place = seatPlace(seat);
    box.style.left = `${place.left}%`;
    box.style.top = `${place.top}%`;
    box.style.setProperty("--team", `var(--team${state.teams[seat] % 6})`);
    box.append(el("div", { class: "name" }, seat === state.seat ? `${label} (you)` : label));
    const badges = el("div");
    if (view.dealer === seat) badges.append(el("span", { class: "badge dealer" }, "dealer"));
    if (view.player === seat) badges.append(el("span", { class: "badge" }, "declarer"));
    if (Array.isArray(view.hand_sizes)) badges.append(el("span", {}, ` ${view.hand_sizes[seat]} cards`));
    box.append(badges);
    if (view.to_act === seat) box.classList.add("to-act");
    ring.append(box);
  });
}

function drawTrick(view) {
  const trick = $("trick");
  const showing = state.showLast && state.lastTrick;
  const cards = showing ? state.lastTrick[1] : (view.trick || []);
  trick.classList.toggle("last", Boolean(showing));
  trick.replaceChildren(...cards.filter((e) => Array.isArray(e)).map(([seat, card]) => {
    const played = el("div", { class: "played" });
    played.append(cardNode(card));
    played.append(el("span", {}, state.labels[seat] ?? `seat ${seat}`));
    return played;
  }));
  if (showing) {
    trick.append(el("div", { class: "played" }, `won by ${state.labels[state.lastTrick[2]]}`));
  }
  $("last-trick-button").disabled = !state.lastTrick;
  $("last-trick-button").textContent = state.showLast ? "this trick" : "last trick";
  const trump = view.trump;
  $("trump").textContent = trump ? `trump ${SUITS[trump] || trump}` : "";
}

function drawHand(view, reasons) {
  const legal = view.legal_actions || [];
  const hand = view.hand || [];
  const box = $("hand");
  box.replaceChildren();
  for (const group of sortedHand(hand)) {
    const g = el("div", { class: "suit-group" });
    for (const [card] of group) {
      const node = cardNode(card, "button");
      node.type = "button";
      // Bezique: "<card>*" plays the copy of the card open on the table.
      const move = legal.includes(card) ? card : legal.includes(`${card}*`) ? `${card}*` : card;
      const ok = legal.includes(move);
      node.classList.add(ok ? "legal" : "illegal");
      if (!ok) {
        const why = (reasons && reasons[card]) || (legal.length ? "" : "it is not your turn");
        node.title = why;
        node.setAttribute("aria-disabled", "true");
        node.setAttribute("aria-label", `${cardFace(card)}: ${why}`);
      }
      // A greyed card is still sent: the server refuses it and says why.
      if (replay) node.disabled = true;
      else node.addEventListener("click", () => play(move));
      g.append(node);
    }
    box.append(g);
  }
  const actions = $("actions");
  // Moves that are not a card of the hand: bids, declarations, and an open
  // copy when the hand holds the card twice (the hidden one is the card).
  const asCard = (a) => hand.includes(a) || (a.endsWith("*") && !legal.includes(a.slice(0, -1)));
  actions.replaceChildren(...legal.filter((a) => !asCard(a)).map((a) => {
    const b = el("button", { type: "button", "data-action": a }, a.endsWith("*") ? `${cardFace(a.slice(0, -1))} from the table` : a.replace(":", " "));
    if (replay) b.disabled = true;
    else b.addEventListener("click", () => play(a));
    return b;
  }));
}

function draw(message) {
  const view = message.view;
  state.view = view;
  if (message.last_trick) state.lastTrick = message.last_trick;
  drawSeats(view);
  drawTrick(view);
  drawHand(view, message.reasons);
  $("words").replaceChildren(...message.words.map((w) => el("li", {}, w)));
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

async function openReplay(database, match, seat) {
  const query = new URLSearchParams({ database, match, seat });
  const answer = await fetch(`/api/replay?${query}`);
  const data = await answer.json();
  if (!answer.ok) { $("lobby-error").textContent = data.error; return; }
  replay = { ...data, database, at: 0 };
  state = { seat: data.seat, labels: data.labels, teams: data.teams, lastTrick: null, showLast: false, view: null };
  $("title").textContent = `${data.title}: replay as ${data.labels[data.seat]}`;
  $("lobby").hidden = true;
  $("recorded").hidden = true;
  $("result").hidden = true;
  $("play").hidden = false;
  $("replay-controls").hidden = false;
  $("replay-seat").replaceChildren(...data.labels.map((l, s) => el("option", { value: s }, `${s}: ${l}`)));
  $("replay-seat").value = String(data.seat);
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
  const dealAt = (i) => frames[i].view.deal;
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
  const wanted = query.get("game");
  if (wanted && games.some((g) => g.name === wanted)) $("game").value = wanted;
  fillSeats();
  $("game").addEventListener("change", fillSeats);
  $("seats").addEventListener("change", fillPlaces);
  $("short").addEventListener("change", fillOptions);
  $("lobby").addEventListener("submit", start);
  $("last-trick-button").addEventListener("click", () => {
    state.showLast = !state.showLast;
    if (state.view) drawTrick(state.view);
  });
  $("list-recorded").addEventListener("click", listRecorded);
  for (const b of document.querySelectorAll("[data-step]")) {
    b.addEventListener("click", () => step(b.dataset.step, Number(b.dataset.by)));
  }
  $("replay-seat").addEventListener("change", () => openReplay(replay.database, replay.match, Number($("replay-seat").value)));
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
