// The one drawing of a card table: troef serve's live play and replays, and
// the HTML report's replays, draw a View with it. Package data of
// harness.report: troef serve serves it as /static/drawing.js, the report
// inlines it (the page opens offline from a file).
//
// A drawing's root holds elements of these classes: seats-ring, trump, trick,
// last-trick (a button), hand, actions, words, places. A frame is what one
// step shows: view (a seat's View as JSON, or the referee's public View),
// words (the View in words), last_trick ([leader, [[seat, card]...], winner]),
// and for the referee's view hands (every seat's cards) and places (the other
// card places of the referee's card_locations).
"use strict";
var TroefDrawing = (function () {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  // Tarot's trumps (suit T) after the four suits; the Excuse (EX) last.
  const SUIT_ORDER = "CDHST";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text) node.textContent = text;
    return node;
  }

  function suitOf(card) { return card.slice(-1); }

  // The rank as the notation writes it (TC is T\u2663, tarot's 10D 10\u2666), so a
  // card reads as the narration and docs/CARDS.md spell it.
  function cardFace(card) {
    const suit = suitOf(card);
    const rank = card.slice(0, -1);
    if (SUITS[suit] && rank) return rank + SUITS[suit];
    if (suit === "T" && rank) return rank + "\u2605";
    return card;
  }

  function cardNode(card, tag) {
    const node = el(tag || "span", { class: "card", "data-card": card, title: card }, cardFace(card));
    const suit = suitOf(card);
    node.classList.add(suit === "H" || suit === "D" ? "red" : suit === "T" ? "trump" : "black");
    return node;
  }

  // The cards by suit in SUIT_ORDER, each with its index in the hand.
  function sortedHand(hand) {
    const groups = {};
    hand.forEach((card, i) => {
      const s = SUIT_ORDER.indexOf(suitOf(card));
      const key = s < 0 ? SUIT_ORDER.length : s;
      (groups[key] = groups[key] || []).push([card, i]);
    });
    return Object.keys(groups).sort((a, b) => a - b).map((k) => groups[k]);
  }

  // table: labels and teams by seat, seat (the one drawn at the bottom), you
  // (the seat whose view it is, or null: the referee's), mark (after its name).
  function seatPlace(table, seat) {
    const n = table.labels.length;
    const angle = Math.PI / 2 + (2 * Math.PI * ((seat - table.seat + n) % n)) / n;
    return { left: 50 + 44 * Math.cos(angle), top: 50 + 42 * Math.sin(angle) };
  }

  function drawSeats(root, table, view, hands) {
    const ring = root.querySelector(".seats-ring");
    ring.replaceChildren();
    root.querySelector(".felt").classList.toggle("open-hands", Boolean(hands));
    table.labels.forEach((label, seat) => {
      const box = el("div", { class: "seat", "data-seat": seat });
      const place = seatPlace(table, seat);
      box.style.left = `${place.left}%`;
      box.style.top = `${place.top}%`;
      // Anchored at the same fraction of its own size: a seat near an edge
      // of the felt stays on it, however wide its open hand.
      box.style.transform = `translate(-${place.left}%, -${place.top}%)`;
      box.style.setProperty("--team", `var(--team${table.teams[seat] % 6})`);
      box.append(el("div", { class: "name" }, seat === table.you ? `${label} ${table.mark}` : label));
      const badges = el("div");
      if (view.dealer === seat) badges.append(el("span", { class: "badge dealer" }, "dealer"));
      if (view.player === seat) badges.append(el("span", { class: "badge" }, "declarer"));
      const sizes = hands ? hands.map((h) => h.length) : view.hand_sizes;
      if (Array.isArray(sizes)) badges.append(el("span", {}, ` ${sizes[seat]} cards`));
      box.append(badges);
      if (hands) {
        // The referee's view: every hand face up at its seat.
        const open = el("div", { class: "open-hand", "data-hand": seat });
        for (const group of sortedHand(hands[seat])) for (const [card] of group) open.append(cardNode(card));
        box.append(open);
      }
      if (view.to_act === seat) box.classList.add("to-act");
      ring.append(box);
    });
  }

  function drawTrick(root, table, view, lastTrick, showLast) {
    const trick = root.querySelector(".trick");
    const showing = showLast && lastTrick;
    const cards = showing ? lastTrick[1] : (view.trick || []);
    trick.classList.toggle("last", Boolean(showing));
    trick.replaceChildren(...cards.filter((e) => Array.isArray(e)).map(([seat, card]) => {
      const played = el("div", { class: "played" });
      played.append(cardNode(card));
      played.append(el("span", {}, table.labels[seat] ?? `seat ${seat}`));
      return played;
    }));
    if (showing) trick.append(el("div", { class: "played" }, `won by ${table.labels[lastTrick[2]]}`));
    // A game without a trick (rummy): the stock and the discard pile's top.
    const pile = view.discard_pile;
    if (!cards.length && Array.isArray(pile)) {
      const stock = typeof view.stock_size === "number" ? view.stock_size : view.stock;
      if (typeof stock === "number") {
        const back = el("div", { class: "played pile" });
        back.append(el("span", { class: "stock-back" }, String(stock)));
        back.append(el("span", {}, "stock"));
        trick.append(back);
      }
      const top = el("div", { class: "played pile" });
      top.append(pile.length ? cardNode(pile[pile.length - 1]) : el("span", { class: "stock-back" }, ""));
      top.append(el("span", {}, `discard pile (${pile.length})`));
      trick.append(top);
    }
    const button = root.querySelector(".last-trick");
    button.disabled = !lastTrick;
    button.textContent = showing ? "this trick" : "last trick";
    const trump = view.trump;
    root.querySelector(".trump").textContent = trump ? `trump ${SUITS[trump] || trump}` : "";
  }

  // play: called with a move when a card or move is chosen; null: a replay,
  // the moves drawn but not playable.
  function drawHand(root, view, reasons, play) {
    const legal = view.legal_actions || [];
    const hand = view.hand || [];
    const box = root.querySelector(".hand");
    box.replaceChildren();
    for (const group of sortedHand(hand)) {
      const g = el("div", { class: "suit-group" });
      for (const [card] of group) {
        const node = cardNode(card, "button");
        node.type = "button";
        // Bezique: "<card>*" plays the copy of the card open on the table.
        const move = legal.includes(card) ? card : legal.includes(`${card}*`) ? `${card}*` : card;
        const ok = legal.includes(move);
        // A replay of a seat not to act: its cards as they are, none greyed.
        if (play || legal.length) node.classList.add(ok ? "legal" : "illegal");
        if (!ok && (play || legal.length)) {
          const why = (reasons && reasons[card]) || (legal.length ? "" : "it is not your turn");
          node.title = why;
          node.setAttribute("aria-disabled", "true");
          node.setAttribute("aria-label", `${cardFace(card)}: ${why}`);
        }
        // A greyed card is still sent: the server refuses it and says why.
        if (!play) node.disabled = true;
        else node.addEventListener("click", () => play(move));
        g.append(node);
      }
      box.append(g);
    }
    // Moves that are not a card of the hand: bids, declarations, and an open
    // copy when the hand holds the card twice (the hidden one is the card).
    const asCard = (a) => hand.includes(a) || (a.endsWith("*") && !legal.includes(a.slice(0, -1)));
    root.querySelector(".actions").replaceChildren(...legal.filter((a) => !asCard(a)).map((a) => {
      const text = a.endsWith("*") ? `${cardFace(a.slice(0, -1))} from the table` : a.replace(":", " ");
      const b = el("button", { type: "button", "data-action": a }, text);
      if (!play) b.disabled = true;
      else b.addEventListener("click", () => play(a));
      return b;
    }));
  }

  function drawPlaces(root, places) {
    const box = root.querySelector(".places");
    if (!box) return;
    box.replaceChildren(...Object.entries(places || {}).filter(([, cards]) => cards.length).map(([place, cards]) => {
      const row = el("li", { "data-place": place }, `${place}: `);
      for (const card of cards) row.append(cardNode(card));
      return row;
    }));
  }

  function draw(root, table, frame, opts) {
    const view = frame.view;
    drawSeats(root, table, view, frame.hands || null);
    drawTrick(root, table, view, frame.last_trick, opts.showLast);
    drawHand(root, frame.hands ? {} : view, opts.reasons, opts.play || null);
    root.querySelector(".words").replaceChildren(...(frame.words || []).map((w) => el("li", {}, w)));
    drawPlaces(root, frame.hands ? frame.places : {});
  }

  // Arrow keys move the focus along the buttons of a row (the hand, the
  // moves): Tab reaches the row, the arrows its cards, Enter plays one.
  function arrowKeys(row) {
    row.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const buttons = [...row.querySelectorAll("button:not([disabled])")];
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      const next = buttons[(at + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
      next.focus();
      e.preventDefault();
      e.stopPropagation();
    });
  }

  return { SUITS, el, suitOf, cardFace, cardNode, sortedHand, draw, drawTrick, arrowKeys };
})();
