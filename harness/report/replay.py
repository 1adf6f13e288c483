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
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import TroefError
from harness.match.human import describe_view
from harness.match.narration import Narrator

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.tournament.store import StoredMatch

__all__ = [
    "compact_replay",
    "drawing",
    "last_trick",
    "public_view",
    "replay_frames",
]


def drawing() -> tuple[str, str]:
    """The table drawing's script and style (``static/drawing.js`` and
    ``drawing.css``, package data): the report inlines them, ``troef serve``
    serves the same files."""
    folder = files("harness.report") / "static"
    return (
        (folder / "drawing.js").read_text(encoding="utf-8"),
        (folder / "drawing.css").read_text(encoding="utf-8"),
    )


#: Trick play is told in lines like "trick 3 to seat 1: 35 points".
_TRICK = re.compile(r"\btrick\b", re.IGNORECASE)


def replay_frames(game: Game, match: StoredMatch) -> dict[str, Any]:
    """A recorded match step by step, rebuilt from its seed and log.

    Step 0 is the deal before any action; step k follows the k-th action. Each
    step holds the narration's lines (``l``, the referee's account; ``h``, by
    seat, the account of each seat that hears it otherwise), the deal, every
    seat's View (``v``) and the referee's card locations (``p``); and what the
    table drawing shows of them: each seat's View in words (``w``, by seat,
    as ``troef serve`` tells a person), the public View (``r``,
    :func:`public_view`: what the referee's table draws beside every hand) and
    the last finished trick (``k``, by seat and ``"r"`` for the referee,
    :func:`last_trick`).
    """
    log = match.result.log
    if log is None:
        raise TroefError(f"match {match.job['id']} was recorded without its log")
    seating = list(match.job["seating"])
    narrator = Narrator(game, match.job["seed"], seating)
    teams = game.teams(len(seating))
    frames = [_frame(narrator, None, None, narrator.start_all(), teams, None)]
    for action in log:
        actor = narrator.state.to_act
        told = narrator.tell_all(action)
        frames.append(_frame(narrator, action, actor, told, teams, frames[-1]))
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
        "teams": list(teams),
        "deck": sorted(set(state.deck())),
        "result": {
            "scores": list(match.result.scores),
            "ranks": list(match.result.ranks),
            "deal_points": [list(d) for d in match.result.deal_points],
        },
        "frames": frames,
    }


def last_trick(
    view: Mapping[str, Any], n_seats: int, before: list[Any] | None
) -> list[Any] | None:
    """The last finished trick the table shows beside ``view`` (the View as
    JSON): ``[leader, [[seat, card], ...] in play order, winner]`` from the
    last record of ``tricks`` (leader, cards from the leader, winner, ...);
    ``before``, the one shown until now, while the View has none (a new deal
    keeps the last trick of the deal before on view until a trick is done)."""
    tricks = view.get("tricks")
    if not (isinstance(tricks, list) and tricks and _is_record(tricks[-1])):
        return before
    leader, cards, winner = tricks[-1][:3]
    return [
        leader,
        [[(leader + i) % n_seats, card] for i, card in enumerate(cards)],
        winner,
    ]


def _is_record(entry: Any) -> bool:
    """A trick record of a View's ``tricks``: leader, cards, winner and two more."""
    return (
        isinstance(entry, list)
        and len(entry) == 5
        and isinstance(entry[0], int)
        and isinstance(entry[1], list)
        and isinstance(entry[2], int)
    )


def public_view(views: list[Mapping[str, Any]]) -> dict[str, Any]:
    """What every seat's View holds alike (the trick, trump, dealer, scores,
    who is to act), without ``seat``: the referee's table draws it with every
    hand open, and no field one seat sees otherwise is taken for public."""
    first, *others = views
    return {
        k: v
        for k, v in first.items()
        if k != "seat" and all(k in o and o[k] == v for o in others)
    }


def _frame(
    narrator: Narrator,
    action: str | None,
    actor: int | None,
    accounts: Mapping[int | None, list[str]],
    teams: tuple[int, ...],
    before: Mapping[str, Any] | None,
) -> dict[str, Any]:
    state = narrator.state
    lines = accounts[None]
    seats = range(state.n_seats)
    seen = [state.view(s) for s in seats]
    views = [json.loads(v.to_json()) for v in seen]
    public = public_view(views)
    shown = before["k"] if before is not None else {}
    tricks = {
        str(s): last_trick(views[s], state.n_seats, shown.get(str(s))) for s in seats
    }
    tricks["r"] = last_trick(public, state.n_seats, shown.get("r"))
    frame: dict[str, Any] = {
        "a": action,
        "s": actor,
        "d": state.deal,
        "o": state.is_over(),
        "t": any(_TRICK.search(line) for line in lines),
        "l": lines,
        "v": views,
        "p": {k: list(v) for k, v in state.card_locations().items()},
        "r": public,
        "w": {
            str(s): [
                line.strip()
                for line in describe_view(seen[s], narrator.labels, teams=teams)
            ]
            for s in seats
        },
        "k": tricks,
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
    before: Mapping[str, Any] = {}
    numbers: dict[str, int] = {}
    for frame in data["frames"]:
        seats = frame["v"]
        views = views or [{} for _ in seats]
        compact = {
            **frame,
            "v": [_delta(v, w) for v, w in zip(views, seats, strict=True)],
            "p": _delta(places, frame["p"]),
        }
        # The drawing's parts: the public View as changes, and the words and
        # last tricks of the seats whose own changed; each line of words once
        # in the match's ``lines`` (most are every seat's: the trick, the
        # scores), a seat's words its lines' numbers.
        if "r" in frame:
            compact["r"] = _delta(before.get("r", {}), frame["r"])
            for key in ("w", "k"):
                old = before.get(key, {})
                compact[key] = {
                    s: v for s, v in frame[key].items() if s not in old or old[s] != v
                }
            compact["w"] = {
                s: [numbers.setdefault(line, len(numbers)) for line in told]
                for s, told in compact["w"].items()
            }
        frames.append(compact)
        views, places, before = seats, frame["p"], frame
    return {**data, "frames": frames, "lines": list(numbers), "compact": True}


_REPLAY = """<p>{shown}. A seat's view is the View that seat's bot received
and the narration that seat heard (what a player at that seat knew); the
referee sees every card and hears every line.</p>
<div class="controls troef-controls">
<label>match <select id="replay-match">{options}</select></label>
<label>view <select id="replay-seat"></select></label>
</div>
<div class="controls troef-controls" id="replay-steps">
<button type="button" id="prev-deal">&laquo; deal</button>
<button type="button" id="prev-trick">&#x25C0;&#x25C0; trick</button>
<button type="button" id="prev-step">&#x25C0; step</button>
<button type="button" id="next-step">step &#x25B6;</button>
<button type="button" id="next-trick">trick &#x25B6;&#x25B6;</button>
<button type="button" id="next-deal">deal &raquo;</button>
<input id="replay-slider" type="range" min="0" max="0" value="0" aria-label="step">
<span id="replay-position" role="status"></span>
</div>
<div id="replay-panels"><div id="replay-view">
<h4 id="replay-heading"></h4>
<div id="replay-table" class="troef-table">
<div class="felt" aria-label="the table"><div class="seats-ring"></div>
<div class="centre"><div class="trump"></div><div class="trick"></div>
<button type="button" class="last-trick" disabled>last trick</button></div></div>
<div class="actions" aria-label="the moves"></div>
<div class="hand" aria-label="the hand"></div>
<ul class="words"></ul>
<ul class="places" aria-label="the other places of the cards"></ul>
</div>
<details id="replay-fields"><summary id="replay-fields-title"></summary>
<div id="replay-dump"></div></details>
</div><div id="replay-log"></div></div>
<h3>Scores after each deal</h3><div id="replay-scores"></div>
"""

# The viewer: plain DOM, no library. The table is drawn by the drawing of
# troef serve (static/drawing.js, TroefDrawing, inlined before this script);
# below it, the step's View (or the referee's card places) as a table of its
# fields, for the bot author.
_SCRIPT = r"""
window.TROEF_REPLAYS = window.TROEF_REPLAYS || {};
// A compact replay (harness.report.html.compact_replay) holds each step's
// views, card places and public View as changes from the step before, and
// each seat's words (numbers of the match's lines) and last trick where they
// changed: rebuilt once here.
function troefExpand(match) {
  if (!match.compact) return match;
  let views = [], places = {}, pub = {}, words = {}, lasts = {};
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
    if (f.r) {
      pub = apply(pub, f.r);
      const told = {};
      for (const [s, numbers] of Object.entries(f.w)) {
        told[s] = numbers.map((n) => match.lines[n]);
      }
      words = Object.assign({}, words, told);
      lasts = Object.assign({}, lasts, f.k);
      f.r = pub;
      f.w = words;
      f.k = lasts;
    }
  }
  match.compact = false;
  return match;
}
(function () {
  const $ = (id) => document.getElementById(id);
  if (!$("replay-match")) return;
  const SUIT = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  let match = null, deck = new Set(), step = 0, seat = "referee", showLast = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const card = TroefDrawing.cardNode;
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
    const referee = seat === "referee";
    const s = referee ? null : Number(seat);
    const table = { labels: match.seating, teams: match.teams, seat: referee ? 0 : s,
      you: s, mark: "(this view)" };
    const drawn = referee ? {
      view: f.r,
      hands: match.seating.map((_, i) => f.p["hand:" + i] || []),
      places: Object.fromEntries(
        Object.entries(f.p).filter(([k]) => !k.startsWith("hand:"))),
      words: [],
      last_trick: f.k.r,
    } : { view: f.v[s], words: f.w[String(s)], last_trick: f.k[String(s)] };
    TroefDrawing.draw($("replay-table"), table, drawn, { showLast: showLast });
    const dump = $("replay-dump");
    if (referee) {
      $("replay-heading").textContent = "Referee's view: every card of the match";
      $("replay-fields-title").textContent = "every card by place";
      dump.replaceChildren(fields(f.p, [], "place"));
    } else {
      const who = match.seating[s];
      $("replay-heading").textContent = "Seat " + s + " (" + who
        + "): the View its bot received"
        + (f.v[s].legal_actions.length ? ", to act" : "");
      $("replay-fields-title").textContent =
        "the View's fields, as its bot received them";
      dump.replaceChildren(fields(f.v[s], ["hand", "legal_actions", "trick"], "field"));
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
  document.querySelector("#replay-table .last-trick").addEventListener("click", () => {
    showLast = !showLast;
    show();
  });

  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented) return;
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });
  load($("replay-match").value);
})();
"""
