#!/usr/bin/env node
// The JS client's dealt games against a real service (run by tests/clients/test_dealt_client.py):
// SCOUNDREL_URL, and the tokens of two players in SCOUNDREL_TOKEN and SCOUNDREL_OTHER_TOKEN.
// Every game is played with only what the API shows; each check throws on failure (exit 1).
import assert from "node:assert/strict";

import {
  ApiError,
  ConflictError,
  IllegalMoveError,
  KIND,
  NotationError,
  VALUE,
  commitmentOf,
  resumeGame,
  sealedDaily,
  startGame,
} from "../../clients/js/src/index.js";

const baseUrl = process.env.SCOUNDREL_URL;
const api = { baseUrl, token: process.env.SCOUNDREL_TOKEN };
const other = { baseUrl, token: process.env.SCOUNDREL_OTHER_TOKEN };
const wait = { intervalMs: 50, timeoutMs: 30000 };

/** A player who sees only the state: a weapon fight, then a weapon, a potion, the weakest monster. */
function choose({ legalMoves }) {
  const value = (move) => VALUE[move.replace(/[wb]$/, "")];
  const weakestFirst = [...legalMoves].sort((a, b) => value(a) - value(b));
  return (
    weakestFirst.findLast((move) => move.endsWith("w")) ??
    weakestFirst.findLast((move) => move[0] === "D" || move[0] === "H") ??
    weakestFirst.find((move) => move.endsWith("b")) ??
    legalMoves[0]
  );
}

async function playOut(game) {
  while (!game.over) await game.play(choose(game.state));
  return game.state;
}

const checks = {
  async "every variant: played to the end, the seed revealed, the deal and the verdict check out"() {
    for (const variant of ["classic", "easy", "hard"]) {
      const game = await startGame(api, { variant });
      assert.deepEqual([game.status, game.variant, game.seed, game.room.length, game.dungeonCount], ["playing", variant, null, 4, 40]);
      const end = await playOut(game);
      assert.ok(["won", "lost"].includes(end.status));
      assert.equal(await commitmentOf(end.seed), end.commitment);
      const check = await game.verifyCommitment(wait);
      assert.equal(check.ok, true, JSON.stringify(check));
      assert.deepEqual([check.run.status, check.run.outcome, check.run.game_id], ["verified", end.status, end.id]);
      assert.equal((await game.refresh()).score, check.run.score, "the game shows its run's score");
    }
  },

  async "an illegal move: IllegalMoveError with the engine's code, ruling and index; nothing is played"() {
    let game = await startGame(api);
    while (!game.room.some((card) => KIND[card] === "monster")) {
      await game.forfeit(); // a first room without a monster: another game
      game = await startGame(api);
    }
    const monster = game.room.find((card) => KIND[card] === "monster");
    await assert.rejects(game.play(`${monster}w`), (error) => {
      assert.ok(error instanceof IllegalMoveError);
      assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["weapon_not_usable", "R11", 0, `${monster}w`]);
      assert.equal(error.message, `Move 1: No weapon is equipped, so ${monster} can only be fought barehanded (R11).`);
      assert.ok(error.cause instanceof ApiError && error.cause.status === 422);
      return true;
    });
    const first = game.legalMoves().find((move) => move !== "flee");
    const absent = first.replace(/[wb]$/, ""); // played by the first move: no longer in the room
    await assert.rejects(game.play([first, first]), (error) => {
      assert.ok(error instanceof IllegalMoveError);
      assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["card_not_in_room", "R4", 1, first]);
      assert.match(error.message, new RegExp(`^Move 2: ${absent} is not in the room`));
      return true;
    });
    await assert.rejects(game.play(["flee", first]), (error) => {
      assert.ok(error instanceof IllegalMoveError);
      assert.deepEqual([error.code, error.moveIndex, error.move], ["room_not_dealt", 1, first]);
      return true;
    });
    assert.deepEqual((await game.refresh()).moves, [], "nothing was played");
    await assert.rejects(game.play("S8"), NotationError);
    await game.forfeit();
  },

  async "expected_moves: a racing move is a ConflictError with the state refreshed; a retry never plays twice"() {
    const mine = await startGame(api);
    const tab = await resumeGame(api, mine.id);
    const lost = await resumeGame(api, mine.id);
    const [a, b] = mine.legalMoves().filter((move) => move !== "flee");
    await mine.play(a);
    await assert.rejects(tab.play(b), (error) => error instanceof ConflictError && error.status === 409);
    assert.deepEqual(tab.moves, [a], "refreshed");
    assert.deepEqual((await lost.play(a)).moves, [a], "an earlier try got through: resolved, not played twice");
    const [x, y] = [await resumeGame(api, mine.id), await resumeGame(api, mine.id)];
    const [mx, my] = x.legalMoves().filter((move) => move !== "flee");
    const results = await Promise.allSettled([x.play(mx), y.play(my)]);
    assert.deepEqual(results.map((result) => result.status).sort(), ["fulfilled", "rejected"]);
    assert.ok(results.find((result) => result.status === "rejected").reason instanceof ConflictError);
    assert.equal((await mine.refresh()).moves.length, 2);
    await assert.rejects(tab.forfeit(), ConflictError, "a forfeit gives up only the game as it was seen");
    if (!mine.over) await mine.forfeit(); // two barehanded fights may have ended it
  },

  async "forfeit: outcome forfeit, scored as dying at once (R18), the deal checks out"() {
    const game = await startGame(api);
    await game.play(choose(game.state));
    const state = await game.forfeit();
    assert.deepEqual([state.status, state.forfeited, state.legalMoves], ["forfeit", true, []]);
    const check = await game.verifyCommitment(wait);
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.deepEqual([check.verdict.outcome, check.run.outcome], ["forfeit", "forfeit"]);
    await assert.rejects(game.forfeit(), ConflictError);
    await assert.rejects(game.play("flee"), ConflictError, "no move after the end");
  },

  async "another player's game being played is 404"() {
    const game = await startGame(api);
    await assert.rejects(resumeGame(other, game.id), { status: 404, code: "not_found" });
    await game.forfeit();
    assert.equal((await resumeGame(other, game.id)).status, "forfeit", "revealed: anyone may check it");
  },

  async "the sealed daily: one deal for all, one game each (ConflictError names it), sealed until the day is over"() {
    const today = await sealedDaily(api);
    assert.equal(today.seed, null);
    const game = await startGame(api, { challenge: "daily" });
    assert.deepEqual([game.state.challenge, game.state.date, game.commitment], ["daily", today.date, today.commitment]);
    await assert.rejects(startGame(api, { challenge: "daily" }), (error) => error instanceof ConflictError && error.gameId === game.id);
    const theirs = await startGame(other, { challenge: "daily" });
    assert.deepEqual(theirs.room, game.room, "the same deal for every player");
    await assert.rejects(startGame(api, { challenge: "daily", variant: "hard" }), { status: 422, code: "invalid" });
    const end = await playOut(await resumeGame(api, game.id));
    assert.equal(end.seed, null);
    assert.deepEqual(await (await resumeGame(api, game.id)).verifyCommitment(), { revealed: false });
    await theirs.forfeit();
  },
};

for (const [name, check] of Object.entries(checks)) {
  await check();
  console.log(`ok - ${name}`);
}
