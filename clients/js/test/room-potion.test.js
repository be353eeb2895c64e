// What a dealt game's client reads from its moves alone: whether a potion was played in the room (R8),
// and how a tournament's game is asked for.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Game, startGame } from "../src/index.js";
import { potionDrunkAfter } from "../src/rules.js";

/** A small deterministic generator, so a failure names a game that can be played again. */
function chooser(seed) {
  let state = seed;
  return (count) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % count;
  };
}

test("r8 a potion played in the room is read from the moves alone, as the engine counts it, in 200 games", async () => {
  for (let n = 0; n < 200; n += 1) {
    const game = await Game.start(`potion-${n}`, n % 3 ? "classic" : "easy");
    const pick = chooser(n + 1);
    while (!game.over) {
      assert.equal(potionDrunkAfter(game.moves), game.snapshot().potionDrunk,
        `potion-${n} after ${game.moves.join(" ")}`);
      const moves = game.legalMoves();
      game.play(moves[pick(moves.length)]);
    }
  }
});

test("r8 a second potion in a room heals nothing; a new room, also after an avoid, allows one again", async () => {
  assert.equal(potionDrunkAfter([]), false);
  assert.equal(potionDrunkAfter(["H6"]), true);
  assert.equal(potionDrunkAfter(["S8b", "H6"]), true);
  assert.equal(potionDrunkAfter(["H6", "S8b", "C5b"]), false); // three played: a new room is dealt (R4)
  assert.equal(potionDrunkAfter(["H6", "flee"]), false);
});

/** An api whose fetch keeps each request's body and answers a game in play of `tournament`. */
function recording(sent) {
  const game = {
    id: "g1", player: "ada", variant: "hard", challenge: null, date: null, tournament: "t1", deal: 2,
    status: "playing", commitment: "c".repeat(64), seed: null, room: ["S8", "C5", "H6", "S3"], health: 20,
    weapon: null, last_kill: null, cards_left: 40, moves: [], legal_moves: ["flee"], run_id: null, score: null,
  };
  const fetch = async (url, init) => {
    sent.push(JSON.parse(init.body));
    return new Response(JSON.stringify(game), { status: 201, headers: { "Content-Type": "application/json" } });
  };
  return { baseUrl: "http://referee.test", token: "sr_x", fetch };
}

test("a tournament's game is asked for without a variant (the tournament's own) and names its tournament and deal", async () => {
  const sent = [];
  const api = recording(sent);
  const game = await startGame(api, { tournament: "t1", deal: 2 });
  assert.deepEqual(sent.at(-1), { tournament: "t1", deal: 2 });
  assert.equal(game.state.tournament, "t1");
  assert.equal(game.state.deal, 2);
  await startGame(api, { tournament: "t1" });
  assert.deepEqual(sent.at(-1), { tournament: "t1" });
  await startGame(api, {});
  assert.deepEqual(sent.at(-1), { variant: "classic" });
});
