#!/usr/bin/env node
// A random bot for troef in JavaScript (Node.js, no npm packages).
//
// It speaks the bot protocol of docs/PROTOCOL.md: one JSON object per line on
// stdin (start, act, end, quit) and one JSON line on stdout per start ("ready")
// and per act ("action"). It plays any game: it picks uniformly among
// view.legal_actions with a small seeded generator (mulberry32), so the same
// seed gives the same play.
//
//     node examples/bots/random_bot.js
//
// Logging goes to stderr: stdout carries only protocol lines.
"use strict";

const readline = require("node:readline");

let rng = null;

// mulberry32: a tiny 32-bit generator; good enough for a random bot.
function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function handle(message) {
  switch (message.type) {
    case "start":
      if (message.protocol !== 1) {
        send({ type: "error", message: `protocol ${message.protocol} not supported` });
        return;
      }
      // Seeds are 63-bit integers; JSON.parse rounds them to doubles, which is
      // deterministic, so the low 32 bits of the rounded value make a fine seed.
      rng = mulberry32(Number(BigInt.asUintN(32, BigInt(message.seed))));
      send({ type: "ready", protocol: 1, name: "random.js" });
      return;
    case "act": {
      const legal = message.view.legal_actions;
      send({ type: "action", action: legal[Math.floor(rng() * legal.length)] });
      return;
    }
    case "end":
      return; // message.result has the scores and ranks; nothing to learn here
    case "quit":
      process.exit(0);
    default:
      send({ type: "error", message: `unknown message type ${message.type}` });
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
  .on("close", () => process.exit(0));
