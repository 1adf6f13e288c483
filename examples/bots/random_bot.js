#!/usr/bin/env node
// A random bot for troef in JavaScript (Node.js, no npm packages).
//
// It speaks the bot protocol of docs/PROTOCOL.md: one JSON object per line on
// stdin (start, act, end, quit) and one JSON line on stdout per start ("ready")
// and per act ("action"). It plays any game: it picks uniformly among
// view.legal_actions with a small seeded generator (mulberry32), so the same
// seed gives the same play.
//
// It holds up to 8 matches at once when the harness offers it (a "match" id in
// "start"): it says so in "ready", keeps one generator per match, and echoes
// each request's id in its answer. Answers go out in request order.
//
//     node examples/bots/random_bot.js
//
// Logging goes to stderr: stdout carries only protocol lines.
"use strict";

const readline = require("node:readline");

const MATCHES = 8;
// One generator per open match; the key is the match id (undefined when the
// harness sends none: one match at a time).
const rngs = new Map();

// mulberry32: a tiny 32-bit generator; good enough for a random bot.
function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Answers wait until every line read so far is handled, then go out in one
// write: a harness that pipelines wakes this process once for many requests.
let out = [];
function flush() {
  process.stdout.write(out.join(""));
  out = [];
}
function send(message, match) {
  // The id right after the type: the harness reads that form fastest.
  if (match !== undefined) message = { type: message.type, match: match, ...message };
  out.push(JSON.stringify(message) + "\n");
  if (out.length === 1) setImmediate(flush);
}

function handle(message) {
  const match = message.match;
  switch (message.type) {
    case "start": {
      if (message.protocol !== 1) {
        send({ type: "error", message: `protocol ${message.protocol} not supported` }, match);
        return;
      }
      // Seeds are 63-bit integers; JSON.parse rounds them to doubles, which is
      // deterministic, so the low 32 bits of the rounded value make a fine seed.
      rngs.set(match, mulberry32(Number(BigInt.asUintN(32, BigInt(message.seed)))));
      const ready = { type: "ready", protocol: 1, name: "random.js" };
      if (match !== undefined) ready.matches = MATCHES;
      send(ready, match);
      return;
    }
    case "act": {
      const legal = message.view.legal_actions;
      const rng = rngs.get(match);
      send({ type: "action", action: legal[Math.floor(rng() * legal.length)] }, match);
      return;
    }
    case "end":
      rngs.delete(match); // message.result has the scores; nothing to learn here
      return;
    case "quit":
      if (out.length) flush();
      process.exit(0);
    default:
      send({ type: "error", message: `unknown message type ${message.type}` }, match);
  }
}

readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => {
    try {
      handle(JSON.parse(line));
    } catch (err) {
      send({ type: "error", message: String(err && err.stack ? err.stack : err) });
    }
  })
  .on("close", () => {
    if (out.length) flush();
    process.exit(0);
  });
