// troef serve DB: the live page polls /api/live and draws what it answers:
// the progress, the SPRT's LLR between its bounds, the standings with their
// intervals, the pairwise results and the latest matches. Every figure is
// the server's (troef status's and troef report's); nothing is computed here
// but the layout.
"use strict";

const $ = (id) => document.getElementById(id);
let shown = "";

function cell(text, cls = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function row(cells, cls = "") {
  const tr = document.createElement("tr");
  if (cls) tr.className = cls;
  tr.append(...cells);
  return tr;
}

const num = (x, digits = 0) => (x === null || x === undefined ? "–" : x.toFixed(digits));
const signed = (x, digits = 0) => (x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(digits));
const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);

function duration(seconds) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function drawProgress(d) {
  $("progress-box").hidden = false;
  $("progress").max = Math.max(1, d.planned);
  $("progress").value = d.recorded;
  let line = `${d.recorded} of ${d.planned} matches recorded`;
  if (d.sprt) line += " (an SPRT: at most; it stops when the test decides)";
  if (d.rate_per_minute !== null) line += `, ${d.rate_per_minute.toFixed(1)} per minute`;
  if (d.seconds_left !== null) line += `, about ${duration(d.seconds_left)} left`;
  $("progress-line").textContent = line;
  $("running").textContent = d.running ? "a run is writing it" : d.recorded >= d.planned ? "finished" : "no run is writing it";
}

function drawSprt(s) {
  $("sprt-box").hidden = !s;
  if (!s) return;
  if (s.llr === null) { $("sprt-line").textContent = "LLR not defined yet"; return; }
  const at = (x) => 100 * Math.min(1, Math.max(0, (x - s.lower) / (s.upper - s.lower)));
  $("llr-mark").style.left = `${at(s.llr)}%`;
  $("llr-zero").style.left = `${at(0)}%`;
  $("llr-bar").setAttribute("aria-label", `LLR ${s.llr.toFixed(2)} between ${s.lower.toFixed(2)} and ${s.upper.toFixed(2)}`);
  $("llr-lower").textContent = `H0 at ${s.lower.toFixed(2)}`;
  $("llr-upper").textContent = `H1 at ${s.upper.toFixed(2)}`;
  const verdict = { H1: "H1 accepted: the candidate is stronger", H0: "H0 accepted: the candidate is not stronger", continue: "no decision yet" }[s.status];
  $("sprt-line").textContent = `LLR ${s.llr.toFixed(3)} in [${s.lower.toFixed(3)}, ${s.upper.toFixed(3)}] after ${s.samples} samples (${s.model}; H0 elo ≤ ${s.elo0}, H1 elo ≥ ${s.elo1}, ${s.elo_model} Elo); ${verdict}`;
}

function drawReport(report) {
  for (const id of ["standings-box", "pairs-box"]) $(id).hidden = !report;
  if (!report) return;
  $("interval-head").textContent = `${Math.round(100 * report.confidence)}% interval`;
  $("standings").tBodies[0].replaceChildren(...report.standings.map((s) => row([
    cell(String(s.rank)), cell(s.tier === null ? "" : String(s.tier)), cell(s.entrant, "entrant"),
    cell(num(s.rating)), cell(`[${num(s.lower)}, ${num(s.upper)}]`), cell(String(s.games)),
    cell(pct(s.score)), cell(s.los_next === null ? "" : pct(s.los_next)),
  ])));
  $("notes").replaceChildren(...report.notes.map((n) => { const li = document.createElement("li"); li.textContent = n; return li; }));
  $("pairs").tBodies[0].replaceChildren(...report.pairs.map((p) => row([
    cell(`${p.a} – ${p.b}`, "text"), cell(`${p.wins}-${p.draws}-${p.losses}`), cell(pct(p.score)),
    cell(`${signed(p.elo)} [${signed(p.lower)}, ${signed(p.upper)}]`), cell(pct(p.los)), cell(num(p.p_holm, 3)),
  ], p.significant ? "significant" : "")));
}

// The match, linked to its replay at serve's table, every hand open.
function replayCell(m) {
  const td = cell("", "text");
  const a = document.createElement("a");
  a.href = `/?${new URLSearchParams({ replay: m["job id"], live: "1", seat: "referee" })}`;
  a.textContent = `${m.index} (${m["job id"]})`;
  td.append(a);
  return td;
}

function drawRecent(d) {
  const recent = d.recent || [];
  $("recent-box").hidden = recent.length === 0;
  $("recent").tBodies[0].replaceChildren(...recent.map((m) => row([
    replayCell(m), cell(m.recorded_at.replace("T", " ").replace(/\.\d+Z$/, " UTC"), "text"),
    cell(m.seating.join(", "), "text"), cell(m.scores.join(" "), "text"), cell(m.ranks.join(" "), "text"),
    cell(m.void ? "void" : m.forfeit ? `${m.forfeit.entrant}: ${m.forfeit.reason}` : "", "text"),
  ])));
  $("replay-command").textContent = `troef replay ${d.database} MATCH`;
}

function draw(d) {
  $("state").textContent = d.message || "";
  document.body.dataset.state = d.state;
  if (d.state !== "results" && d.state !== "empty") return;
  $("name").textContent = d.name;
  document.title = `troef: ${d.name}, live`;
  drawProgress(d);
  drawSprt(d.sprt);
  drawReport(d.report);
  drawRecent(d);
  document.body.dataset.recorded = String(d.recorded);
}

async function poll() {
  let wait = 1;
  try {
    const answer = await fetch("/api/live", { cache: "no-store" });
    const text = await answer.text();
    const d = JSON.parse(text);
    wait = d.poll_seconds;
    if (text !== shown) { shown = text; draw(d); }
  } catch (err) {
    $("state").textContent = `the server does not answer (${err}); trying again`;
    shown = "";
  }
  setTimeout(poll, 1000 * wait);
}

poll();
