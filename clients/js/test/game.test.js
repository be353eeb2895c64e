// Game: the move-by-move API a web client plays on (RULES.md rulings by id).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ENGINE_VERSION, Game, IllegalMoveError, MoveError, NotationError, replay } from "../src/index.js";

// seed "abc" deals S8 C5 H6 S3 | C7 C10 S11 D2 | S9 C13 C14 D7 | …

test("the first room is the top four cards, in order (R4)", async () => {
  const game = await Game.start("abc");
  assert.deepEqual(game.room, ["S8", "C5", "H6", "S3"]);
  assert.equal(game.dungeonCount, 40);
  assert.equal(game.health, 20);
  assert.equal(game.weapon, null);
  assert.deepEqual(game.kills, []);
  assert.equal(game.lastKill, null);
  assert.equal(game.over, false);
  assert.equal(game.score, null);
  assert.deepEqual(game.legalMoves(), ["S8b", "C5b", "H6", "S3b", "flee"]);
});

test("r6 flee sends the room to the bottom in room order (R7) and forbids a second avoid in classic", async () => {
  const game = await Game.start("abc");
  const effect = game.play("flee");
  assert.deepEqual(effect.avoided, ["S8", "C5", "H6", "S3"]);
  assert.deepEqual(game.room, ["C7", "C10", "S11", "D2"]);
  assert.equal(game.snapshot().dungeon.slice(-4).join(" "), "S8 C5 H6 S3");
  assert.ok(!game.legalMoves().includes("flee"));
  assert.throws(() => game.play("flee"), {
    name: "IllegalMoveError",
    code: "flee_not_allowed",
    ruling: "R6",
    moveIndex: 1,
    message: /^Move 2: The previous room was avoided/,
  });
});

test("r14 easy allows two avoids in a row, hard none", async () => {
  const easy = await Game.start("abc", "easy");
  easy.play("flee");
  easy.play("flee");
  assert.deepEqual(easy.room, ["S9", "C13", "C14", "D7"]);
  const hard = await Game.start("abc", "hard");
  assert.throws(() => hard.play("flee"), { code: "flee_not_allowed", ruling: "R14" });
});

test("r10 a worn weapon cannot fight an equal monster; the state is untouched", async () => {
  const game = await Game.start("abc");
  game.play("flee");
  game.play("D2");
  game.play("C7w");
  assert.equal(game.lastKill, "C7");
  assert.equal(game.health, 15);
  const before = game.snapshot();
  assert.throws(() => game.play("C10w"), (error) => {
    assert.ok(error instanceof IllegalMoveError && error instanceof MoveError);
    assert.equal(error.code, "weapon_not_usable");
    assert.equal(error.ruling, "R10");
    assert.equal(error.moveIndex, 3);
    return true;
  });
  assert.deepEqual(game.snapshot(), before);
  assert.deepEqual(game.moves, ["flee", "D2", "C7w"]);
});

test("r2 a string outside the notation is a NotationError, not a rule violation", async () => {
  const game = await Game.start("abc");
  for (const bad of ["S8", "H6w", "flee ", 7, null]) {
    assert.throws(() => game.play(bad), (error) => {
      assert.ok(error instanceof NotationError && !(error instanceof IllegalMoveError));
      assert.equal(error.code, "invalid_notation");
      assert.equal(error.ruling, "R2");
      assert.equal(error.moveIndex, 0);
      return true;
    });
  }
  assert.equal(game.isLegal("S8"), false);
  assert.equal(game.isLegal("S8b"), true);
});

test("card_not_in_room names the room (R4)", async () => {
  const game = await Game.start("abc");
  assert.throws(() => game.play("D2"), {
    code: "card_not_in_room",
    message: "Move 1: D2 is not in the room; the room holds S8, C5, H6, S3 (R4).",
  });
});

test("verdict of an unfinished game is incomplete at the number of moves (R17)", async () => {
  const game = await Game.start("abc");
  game.play("S3b");
  assert.deepEqual(game.verdict().error, {
    code: "incomplete",
    move_index: 1,
    message: "The move list ends after 1 move but the game is not over; an unfinished game is never scored (R17).",
    ruling: "R17",
  });
  assert.deepEqual(game.toSubmission(), { seed: "abc", moves: ["S3b"], variant: "classic" });
});

test("a game played to the end is verified and refuses more moves", async () => {
  const game = await Game.start("seed-42");
  while (!game.over) game.play(game.legalMoves().at(-1));
  const verdict = game.verdict();
  assert.equal(verdict.status, "verified");
  assert.equal(verdict.score, game.score);
  assert.deepEqual(await replay("seed-42", game.moves), verdict);
  assert.throws(() => game.play("flee"), { code: "move_after_game_over" });
});

test("Game.start refuses an invalid seed or variant with a TypeError", async () => {
  await assert.rejects(Game.start("a b"), { name: "TypeError", message: /invalid seed/ });
  await assert.rejects(Game.start("abc", "ranked"), { name: "TypeError", message: /unknown variant/ });
});

test("replay never throws for malformed input: it is an invalid verdict", async () => {
  assert.deepEqual(await replay("abc", ["S8"]), {
    status: "invalid",
    errors: {
      moves: {
        0: [
          "Not a move in the notation: use flee, H<v>, D<v>, or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2).",
        ],
      },
    },
  });
  assert.deepEqual((await replay(undefined, undefined)).errors, {
    seed: ["Missing data for required field."],
    moves: ["Missing data for required field."],
  });
});

test("state: the position as the player sees it, frozen, in the shape of a dealt game's state", async () => {
  const game = await Game.start("abc");
  game.play("flee");
  game.play("D2");
  game.play("C7w");
  const state = game.state;
  assert.deepEqual(state, {
    variant: "classic",
    status: "playing",
    room: ["C10", "S11"],
    health: 15,
    weapon: "D2",
    kills: ["C7"],
    lastKill: "C7",
    dungeonCount: 40,
    moves: ["flee", "D2", "C7w"],
    legalMoves: ["C10b", "S11b"],
    over: false,
    won: false,
    lost: false,
    score: null,
  });
  assert.ok(Object.isFrozen(state));
  game.play("S11b");
  game.play("C10b");
  assert.equal(state.health, 15, "a state is a copy");
  assert.deepEqual([game.state.status, game.state.over, game.state.score], ["lost", true, game.score]);
});

test("r18 a forfeit scores as dying at once: 0 minus every monster not yet defeated, room and dungeon", async () => {
  const untouched = await Game.start("abc");
  assert.deepEqual(untouched.verdict({ forfeit: true }), {
    status: "verified",
    outcome: "forfeit",
    score: -208,
    health: 20,
    moves: 0,
    ruleset: "scoundrel-1",
    engine: ENGINE_VERSION,
  });
  const game = await Game.start("abc");
  game.play("S8b");
  game.play("C5b"); // S3 still in the room
  const some = game.verdict({ forfeit: true });
  assert.deepEqual([some.outcome, some.score, some.health, some.moves], ["forfeit", -(208 - 8 - 5), 7, 2]);
  assert.equal(game.verdict().error.code, "incomplete", "without a forfeit R17 stands");
  assert.equal((await replay("abc", ["S8b", "C5b"])).error.code, "incomplete", "a submission is never a forfeit");
});

test("r18 a game already over keeps its outcome when forfeited", async () => {
  const game = await Game.start("abc");
  for (const move of ["S8b", "C5b", "S3b", "C7b"]) game.play(move);
  assert.equal(game.verdict().outcome, "lost");
  assert.deepEqual(game.verdict({ forfeit: true }), game.verdict());
});
