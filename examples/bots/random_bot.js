#!/usr/bin/env node
// A bkbot/1 bot in JavaScript (Node): the same play as random_bot.py, with its own generator.
// Run it in a game:  bkref simulate --players 3 --seed 1 --policy 'cmd:node examples/bots/random_bot.js'
// One JSON message a line on standard input, answers on standard output (docs/bot-protocol.md).
"use strict";
const readline = require("readline");

let state = 1; // a small seeded generator (mulberry32), so a game replays
function seed(s) {
  state = s >>> 0;
}
function below(n) {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function choose(decision) {
  const n = decision.moves.length;
  if ((decision.kind === "camp" || decision.kind === "build") && n > 1) return below(n - 1); // not the null
  return below(n);
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: "bkbot/1", name: "random_bot.js", version: "1" });
      break;
    case "game":
      seed(message.seed);
      break;
    case "decide":
      send({ type: "move", id: message.id, index: choose(message) });
      break;
    case "over":
      process.stderr.write("over: " + JSON.stringify(message.scores) + "\n");
      break;
    case "quit":
      process.exit(0);
  }
});
