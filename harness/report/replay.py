"""The HTML report's replays: a recorded match rebuilt step by step, and its viewer.

:func:`replay_frames` replays the stored log from the match seed: each step
holds what the game's narration said, every seat's View as
``State.view(seat)`` gives it (the very View a bot at that seat received when
it was to act) and the referee's ``card_locations()``; so it needs
``keep_logs``. :func:`compact_replay` keeps each step as its changes from the
step before. ``_REPLAY`` and ``_SCRIPT`` are the viewer's markup and its
script (plain DOM, no library), which rebuilds the steps and plays them
action by action, trick by trick and deal by deal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import TroefError
from harness.match.narration import Narrator

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.tournament.store import StoredMatch

__all__ = ["compact_replay", "replay_frames"]

#: Trick play is told in lines like "trick 3 to seat 1: 35 points".
_TRICK = re.compile(r"\btrick\b", re.IGNORECASE)


def replay_frames(game: Game, match: StoredMatch) -> dict[str, Any]:
    """A recorded match step by step, rebuilt from its seed and log.

    Step 0 is the deal before any action; step k follows the k-th action. Each
    step holds the narration's lines (``l``, the referee's account; ``h``, by
    seat, the account of each seat that hears it otherwise), the deal, every
    seat's View and the referee's card locations.
    """
    log = match.result.log
    if log is None:
        raise TroefError(f"match {match.job['id']} was recorded without its log")
    seating = list(match.job["seating"])
    narrator = Narrator(game, match.job["seed"], seating)
    frames = [_frame(narrator, None, None, narrator.start_all())]
    for action in log:
        actor = narrator.state.to_act
        frames.append(_frame(narrator, action, actor, narrator.tell_all(action)))
    last: list[str] = []
    if match.result.forfeit is not None:
        last.append(narrator.forfeit(match.result.forfeit))
    if match.result.ended is not None:
        last.append(f"match ended by the referee: {match.result.ended}")
    for lines in (frames[-1]["l"], *frames[-1].get("h", {}).values()):
        lines += last
    state = narrator.state
    return {
        "id": match.job["id"],
        "game": game.title,
        "seed": match.job["seed"],
        "seating": seating,
        "deck": sorted(set(state.deck())),
        "result": {
            "scores": list(match.result.scores),
            "ranks": list(match.result.ranks),
            "deal_points": [list(d) for d in match.result.deal_points],
        },
        "frames": frames,
    }


def _frame(
    narrator: Narrator,
    action: str | None,
    actor: int | None,
    accounts: Mapping[int | None, list[str]],
) -> dict[str, Any]:
    state = narrator.state
    lines = accounts[None]
    frame: dict[str, Any] = {
        "a": action,
        "s": actor,
        "d": state.deal,
        "o": state.is_over(),
        "t": any(_TRICK.search(line) for line in lines),
        "l": lines,
        "v": [json.loads(state.view(s).to_json()) for s in range(state.n_seats)],
        "p": {k: list(v) for k, v in state.card_locations().items()},
    }
    # A seat that hears this step otherwise (an Aside) has its own account.
    heard = {
        str(seat): told
        for seat, told in accounts.items()
        if seat is not None and told != lines
    }
    if heard:
        frame["h"] = heard
    return frame


#: A compact frame's keys: the fields a step removed, and the lists it
#: lengthened, with only their new items (see compact_replay).
_GONE = "~"
_GREW = "+"


def _delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    changed: dict[str, Any] = {}
    grew: dict[str, Any] = {}
    for k, v in after.items():
        old = before.get(k)
        if k in before and old == v:
            continue
        if isinstance(old, list) and isinstance(v, list) and old == v[: len(old)]:
            grew[k] = v[len(old) :]  # a trick or a history one item longer
        else:
            changed[k] = v
    gone = [k for k in before if k not in after]
    if gone:
        changed[_GONE] = gone
    if grew:
        changed[_GREW] = grew
    return changed


def compact_replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`replay_frames`' data with each step's views and card places as
    changes from the step before (the viewer rebuilds them when a match loads).

    One action changes a field or two of a View, and a list that grows (the
    tricks of the deal) is sent only its new items, so this is a fraction of
    the size: every seat's whole View at every step is what made a report
    folder grow by megabytes per long match.
    """
    frames = []
    views: list[Mapping[str, Any]] = []
    places: Mapping[str, Any] = {}
    for frame in data["frames"]:
        seats = frame["v"]
        views = views or [{} for _ in seats]
        frames.append(
            {
                **frame,
                "v": [_delta(v, w) for v, w in zip(views, seats, strict=True)],
                "p": _delta(places, frame["p"]),
            }
        )
        views, places = seats, frame["p"]
    return {**data, "frames": frames, "compact": True}


_REPLAY = """<p>{shown}. A seat's view is the View that seat's bot received
and the narration that seat heard (what a player at that seat knew); the
referee sees every card and hears every line.</p>
<div class="controls">
<label>match <select id="replay-match">{options}</select></label>
<label>view <select id="replay-seat"></select></label>
</div>
<div class="controls">
<button id="prev-deal">&laquo; deal</button>
<button id="prev-trick">&#x25C0;&#x25C0; trick</button>
<button id="prev-step">&#x25C0; step</button>
<button id="next-step">step &#x25B6;</button>
<button id="next-trick">trick &#x25B6;&#x25B6;</button>
<button id="next-deal">deal &raquo;</button>
<input id="replay-slider" type="range" min="0" max="0" value="0">
<span id="replay-position"></span>
</div>
<div id="replay-panels"><div id="replay-view"></div><div id="replay-log"></div></div>
<h3>Scores after each deal</h3><div id="replay-scores"></div>
"""

# The viewer: plain DOM, no library. Cards are strings of the match's deck;
# everything else of a View is drawn as a small table of its fields.
_SCRIPT = r"""
window.TROEF_REPLAYS = window.TROEF_REPLAYS || {};
// A compact replay (harness.report.html.compact_replay) holds each step's
// views and card places as changes from the step before: rebuilt once here.
function troefExpand(match) {
  if (!match.compact) return match;
  let views = [], places = {};
  const apply = (before, change) => {
    const after = Object.assign({}, before, change);
    for (const k of change["~"] || []) delete after[k];
    for (const [k, tail] of Object.entries(change["+"] || {})) {
      after[k] = before[k].concat(tail);
    }
    delete after["~"];
    delete after["+"];
    return after;
  };
  for (const f of match.frames) {
    views = f.v.map((change, s) => apply(views[s] || {}, change));
    places = apply(places, f.p);
    f.v = views;
    f.p = places;
  }
  match.compact = false;
  return match;
}
(function () {
  const $ = (id) => document.getElementById(id);
  if (!$("replay-match")) return;
  const SUIT = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  let match = null, deck = new Set(), step = 0, seat = "referee";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function card(c) {
    const suit = c.slice(-1), rank = c.slice(0, -1);
    const red = suit === "D" || suit === "H";
    const e = el("span", "card " + (suit === "T" ? "trump" : red ? "red" : "black"));
    // The rank as the notation writes it (TC is T\u2663, tarot's 10D 10\u2666),
    // so a chip reads as the narration and docs/CARDS.md spell the card.
    e.textContent = SUIT[suit] ? rank + SUIT[suit]
      : suit === "T" ? rank + "\u2605" : c;
    e.dataset.card = c;
    e.title = c;
    return e;
  }
  function value(v) {
    if (typeof v === "string" && deck.has(v)) return card(v);
    if (Array.isArray(v)) {
      const box = el("span", "list");
      box.append("[");
      v.forEach((x, i) => { if (i) box.append(" "); box.append(value(x)); });
      box.append("]");
      return box;
    }
    if (v !== null && typeof v === "object") {
      const t = el("table");
      for (const [k, x] of Object.entries(v)) {
        const tr = el("tr"); tr.append(el("th", "", k));
        const td = el("td"); td.append(value(x)); tr.append(td); t.append(tr);
      }
      return t;
    }
    return document.createTextNode(v === null ? "-" : String(v));
  }
  function fields(obj, first, attr) {
    const t = el("table");
    const keys = Object.keys(obj);
    keys.sort((a, b) => (first.indexOf(b) >= 0) - (first.indexOf(a) >= 0));
    for (const k of keys) {
      const tr = el("tr"); tr.dataset[attr] = k;
      tr.append(el("th", "", k));
      const td = el("td"); td.append(value(obj[k])); tr.append(td); t.append(tr);
    }
    return t;
  }
  function show() {
    if (!match) return;
    const f = match.frames[step];
    const box = $("replay-view");
    box.replaceChildren();
    if (seat === "referee") {
      box.append(el("h4", "", "Referee's view: every card of the match"));
      box.append(fields(f.p, [], "place"));
    } else {
      const s = Number(seat);
      const who = match.seating[s];
      box.append(el("h4", "", "Seat " + s + " (" + who + "): the View its bot received"
        + (f.v[s].legal_actions.length ? ", to act" : "")));
      box.append(fields(f.v[s], ["hand", "legal_actions", "trick"], "field"));
    }
    // A seat sees its own account: no action it could not see, its lines.
    const pos = $("replay-position");
    pos.textContent = "step " + step + " / " + (match.frames.length - 1)
      + ", deal " + f.d + (f.a && seat === "referee" ? ", last action " + f.a : "");
    $("replay-slider").value = String(step);
    const log = $("replay-log");
    log.replaceChildren();
    let now = null;
    match.frames.slice(0, step + 1).forEach((g, i) => {
      const told = seat !== "referee" && g.h && g.h[seat] ? g.h[seat] : g.l;
      for (const line of told) {
        const p = el("div", i === step ? "now" : "", line);
        log.append(p);
        if (i === step && !now) now = p;
      }
    });
    // Scroll the log box only, never the page: the viewer may be off screen.
    log.scrollTop = now ? now.offsetTop - log.offsetTop - 40 : log.scrollHeight;
    const rows = match.result.deal_points;
    const done = f.o ? rows.length : Math.min(f.d, rows.length);
    const t = el("table");
    const head = el("tr"); head.append(el("th", "", "deal"));
    match.seating.forEach((n, i) => head.append(el("th", "", i + " " + n)));
    t.append(head);
    const total = match.seating.map(() => 0);
    rows.slice(0, done).forEach((r, k) => {
      const tr = el("tr"); tr.append(el("td", "", String(k)));
      r.forEach((x, i) => {
        total[i] += x;
        tr.append(el("td", "", x + " (" + total[i] + ")"));
      });
      t.append(tr);
    });
    $("replay-scores").replaceChildren(t);
  }
  function go(k) {
    if (!match) return;
    step = Math.max(0, Math.min(match.frames.length - 1, k));
    show();
  }
  function seek(dir, test) {
    if (!match) return;
    for (let k = step + dir; k >= 0 && k < match.frames.length; k += dir) {
      if (test(k)) { go(k); return; }
    }
    go(dir > 0 ? match.frames.length - 1 : 0);
  }
  const fr = (k) => match.frames[k];
  const dealStart = (k) => k === 0 || fr(k).d !== fr(k - 1).d;
  function load(file) {
    const ready = () => {
      match = troefExpand(window.TROEF_REPLAYS[file]);
      deck = new Set(match.deck);
      const sel = $("replay-seat");
      sel.replaceChildren();
      const ref = el("option", "", "referee"); ref.value = "referee"; sel.append(ref);
      match.seating.forEach((n, i) => {
        const o = el("option", "", "seat " + i + " (" + n + ")"); o.value = String(i);
        sel.append(o);
      });
      sel.value = seat = (seat !== "referee" && Number(seat) < match.seating.length)
        ? seat : "referee";
      $("replay-slider").max = String(match.frames.length - 1);
      go(0);
    };
    if (window.TROEF_REPLAYS[file]) { ready(); return; }
    const s = document.createElement("script");
    s.src = "replays/" + file;
    s.onload = ready;
    document.body.append(s);
  }
  $("replay-match").addEventListener("change", (e) => load(e.target.value));
  $("replay-seat").addEventListener("change", (e) => {
    seat = e.target.value;
    show();
  });
  $("prev-step").addEventListener("click", () => go(step - 1));
  $("next-step").addEventListener("click", () => go(step + 1));
  $("prev-trick").addEventListener("click", () => seek(-1, (k) => fr(k).t));
  $("next-trick").addEventListener("click", () => seek(1, (k) => fr(k).t));
  $("prev-deal").addEventListener("click", () => seek(-1, dealStart));
  $("next-deal").addEventListener("click", () => seek(1, dealStart));
  $("replay-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });
  load($("replay-match").value);
})();
"""
