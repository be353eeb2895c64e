#!/usr/bin/env node
// Judge games with clients/js's replay: reads a JSON list of {seed, moves, variant, forfeit}
// on stdin, writes the list of verdicts as JSON on stdout (tests/clients/test_forfeit_crosscheck.py).
import { text } from "node:stream/consumers";

import { replay } from "../../clients/js/src/index.js";

const games = JSON.parse(await text(process.stdin));
const verdicts = [];
for (const { seed, moves, variant, forfeit } of games) verdicts.push(await replay(seed, moves, variant, { forfeit }));
process.stdout.write(JSON.stringify(verdicts));
