// The JS engine against the Python engine: every game in tests/data/crosscheck.json
// (written by clients/js/tools/make_crosscheck.py) must get the very verdict Python gave.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

import { ENGINE_VERSION, Game, IllegalMoveError, RULESET, replay, submissionErrors } from "../src/index.js";

const fixture = JSON.parse(await readFile(new URL("../../../tests/data/crosscheck.json", import.meta.url), "utf8"));

test("the fixture was written for this ruleset and engine version", () => {
  assert.equal(fixture.ruleset, RULESET);
  assert.equal(fixture.engine, ENGINE_VERSION);
});

test("the fixture covers wins, losses and every rejection code in all three variants", () => {
  const seen = new Set(fixture.games.map(({ verdict }) => verdict.outcome ?? verdict.error.code));
  for (const kind of ["won", "lost", "card_not_in_room", "weapon_not_usable", "flee_not_allowed", "move_after_game_over", "incomplete"]) {
    assert.ok(seen.has(kind), `no ${kind} game in the fixture`);
  }
  assert.deepEqual([...new Set(fixture.games.map((game) => game.variant))].sort(), ["classic", "easy", "hard"]);
});

test("replay() gives Python's verdict for every fixture game", async () => {
  for (const { seed, variant, moves, verdict } of fixture.games) {
    assert.deepEqual(await replay(seed, moves, variant), verdict, `${seed} ${variant} ${moves.join(" ")}`);
  }
});

test("Game gives the same verdict move by move, and an illegal move changes nothing", async () => {
  for (const { seed, variant, moves, verdict } of fixture.games) {
    const game = await Game.start(seed, variant);
    let refused = null;
    for (const notation of moves) {
      const legal = game.legalMoves();
      const before = game.snapshot();
      try {
        game.play(notation);
        assert.ok(legal.includes(notation), `${notation} was played but not listed as legal`);
      } catch (error) {
        assert.ok(error instanceof IllegalMoveError);
        assert.ok(!legal.includes(notation), `${notation} was refused but listed as legal`);
        assert.deepEqual(game.snapshot(), before);
        refused = error;
        break;
      }
    }
    const where = `${seed} ${variant}`;
    if (verdict.status === "rejected" && verdict.error.code !== "incomplete") {
      assert.ok(refused, `${where}: Python rejected move ${verdict.error.move_index}, JS played it`);
      assert.deepEqual(refused.toJSON(), verdict.error, where);
      assert.equal(refused.moveIndex, verdict.error.move_index);
      assert.equal(refused.code, verdict.error.code);
    } else {
      assert.equal(refused, null, where);
      assert.deepEqual(game.verdict(), verdict, where);
      assert.equal(game.over, verdict.status === "verified");
      if (game.over) assert.deepEqual(game.legalMoves(), []);
    }
  }
});

test("malformed submissions get the service schema's field errors", async () => {
  for (const { submission, errors } of fixture.malformed) {
    assert.deepEqual(submissionErrors(submission), errors, JSON.stringify(submission)?.slice(0, 80));
    const plain = submission && typeof submission === "object" && !Array.isArray(submission);
    if (plain && Object.keys(submission).every((key) => ["seed", "moves", "variant"].includes(key))) {
      assert.deepEqual(await replay(submission.seed, submission.moves, submission.variant), {
        status: "invalid",
        errors,
      });
    }
  }
});
