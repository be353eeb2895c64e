#!/usr/bin/env node
// Judge dealt games given up after their moves (R18) with clients/js's Game: reads a JSON list of
// {seed, moves, variant} (legal moves) on stdin, writes the list of verdicts as JSON on stdout
// (tests/clients/test_forfeit_crosscheck.py).
import { text } from "node:stream/consumers";

import { Game } from "../../clients/js/src/index.js";

const verdicts = [];
for (const { seed, moves, variant } of JSON.parse(await text(process.stdin))) {
  const game = await Game.start(seed, variant);
  for (const move of moves) game.play(move);
  verdicts.push(game.verdict({ forfeit: true }));
}
process.stdout.write(JSON.stringify(verdicts));
