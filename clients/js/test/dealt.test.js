// Dealt games over HTTP (startGame / play / state) against the fake server, which deals with
// this module's engine from a hidden seed and follows the service's contract (issue 10).
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { after, before, test } from "node:test";

import {
  ApiError,
  ConflictError,
  DealtGame,
  Game,
  IllegalMoveError,
  MAX_MOVES,
  NotationError,
  commitmentOf,
  dealtSeed,
  drawClientSeed,
  gamesInPlay,
  isValidSeed,
  nextDeal,
  registerPlayer,
  resumeGame,
  sealedDaily,
  startGame,
  waitForVerdict,
} from "../src/index.js";
import { startFakeServer } from "../tools/fake-server.js";

let server;
let api; // {baseUrl, token} of the player "dealer"
let other; // another player's

before(async () => {
  server = await startFakeServer();
  api = { baseUrl: server.baseUrl, token: (await registerPlayer(server.baseUrl, "dealer")).token };
  other = { baseUrl: server.baseUrl, token: (await registerPlayer(server.baseUrl, "rival")).token };
});
after(() => server.close());

/** A newly registered player's `{baseUrl, token}`: one game in play per player and variant, so a test
 * that leaves a game in play does not stand in the next one's way. */
let players = 0;
async function newPlayer() {
  players += 1;
  return { baseUrl: server.baseUrl, token: (await registerPlayer(server.baseUrl, `player-${players}`)).token };
}

const CARD = /\b[SCDH](?:1[0-4]|[2-9])\b/g;
const COMMON = ["room", "health", "weapon", "kills", "lastKill", "dungeonCount", "moves", "legalMoves"];

/** What a player who sees only the state would do: a weapon fight if it may, else a potion, else the first legal move. */
function choose(state) {
  const legal = state.legalMoves;
  return legal.find((move) => move.endsWith("w")) ?? legal.find((move) => move[0] === "H") ?? legal[0];
}

/** Play to the end; resolves to every state seen, the first one included. */
async function playOut(game) {
  const states = [game.state];
  while (!game.over) states.push(await game.play(choose(game.state)));
  return states;
}

function sameCommon(actual, expected, message) {
  for (const key of COMMON) assert.deepEqual(actual[key], expected[key], `${message}: ${key}`);
}

/** Every answer the fake server sent about one game, in order, parsed. */
function answersAbout(gameId) {
  return server.state.responses
    .map((answer) => ({ ...answer, json: JSON.parse(answer.body || "null") }))
    .filter(({ url, json }) => url.startsWith(`/v1/games/${gameId}`) || (url === "/v1/games" && json?.id === gameId));
}

test("a DealtGame has every getter and method of a local Game that needs no deck", () => {
  const needDeck = ["constructor", "verdict", "toSubmission", "snapshot"];
  const shared = Object.getOwnPropertyNames(Game.prototype).filter((name) => !needDeck.includes(name));
  assert.deepEqual(shared.filter((name) => !(name in DealtGame.prototype)), []);
});

for (const variant of ["classic", "easy", "hard"]) {
  test(`${variant}: a dealt game played to the end over HTTP, mirroring a local Game move by move`, async () => {
    const game = await startGame(api, { variant });
    assert.equal(game.state.status, "playing");
    assert.equal(game.state.variant, variant);
    assert.equal(game.seed, null, "the seed is sealed while the game is played");
    assert.match(game.commitment, /^[0-9a-f]{64}$/);
    assert.equal(game.room.length, 4);
    assert.equal(game.dungeonCount, 40);
    const states = await playOut(game);

    const end = game.state;
    assert.ok(end.over && ["won", "lost"].includes(end.status));
    assert.equal(end.won, end.status === "won");
    assert.match(end.seed, /^[0-9a-f]{64}$/, "a free game's seed is revealed at its end");
    assert.equal(await commitmentOf(end.seed), end.commitment);
    assert.deepEqual(end.legalMoves, []);

    // The same seed, played locally with the same moves, went through the very same positions.
    const local = await Game.start(end.seed, variant);
    sameCommon(states[0], local.state, "before any move");
    for (const [i, move] of end.moves.entries()) {
      local.play(move);
      const shown = states[i + 1];
      sameCommon({ ...shown, legalMoves: shown.over ? local.state.legalMoves : shown.legalMoves }, local.state, `after ${move}`);
    }
    assert.equal(local.state.status, end.status);
    assert.equal(end.score, null, "the score shows once the game's run is verified");

    const check = await game.verifyCommitment({ intervalMs: 5 });
    assert.equal(check.revealed, true);
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.equal(check.verdict.status, "verified");
    assert.deepEqual(check.mismatches, []);
    const { run } = check;
    assert.deepEqual([run.origin, run.game_id, run.status, run.outcome, run.score], ["dealt", end.id, "verified", end.status, local.score]);
    assert.equal((await game.refresh()).score, local.score);
  });
}

test("no answer shows a card before it is face up, nor the seed before the end (checked against the real deck)", async () => {
  const game = await startGame(api);
  const first = game.legalMoves().find((move) => move !== "flee");
  await game.play(first);
  await game.refresh();
  await assert.rejects(game.play(first), IllegalMoveError); // a refused move's answer counts too
  await playOut(game);
  const { seed, variant } = game.state;
  // Replay the revealed deck: after k moves, the cards that have been face up so far.
  const local = await Game.start(seed, variant);
  const faceUp = [new Set(local.room)];
  for (const move of game.moves) {
    local.play(move);
    faceUp.push(new Set([...faceUp.at(-1), ...local.room]));
  }
  const answers = answersAbout(game.id);
  assert.ok(answers.length >= game.moves.length + 3);
  for (const { json, body, headers, status } of answers) {
    const over = json?.status !== undefined && json.status !== "playing";
    if (over) continue;
    const played = json?.moves?.length ?? null;
    const known = faceUp[played ?? 0];
    const early = (body.match(CARD) ?? []).filter((card) => !known.has(card));
    assert.deepEqual(early, [], `${status} answer after ${played} moves shows ${early}`);
    assert.ok(!body.includes(seed) && !JSON.stringify(headers).includes(seed), "the seed is in an answer");
    if (json?.seed !== undefined) assert.equal(json.seed, null);
  }
  // What the client sent is its moves, and how many it had seen: nothing else.
  const sent = server.state.requests.filter(({ url, method }) => method === "POST" && url === `/v1/games/${game.id}/moves`);
  for (const { body } of sent) assert.deepEqual(Object.keys(JSON.parse(body)).sort(), ["expected_moves", "moves"]);
});

// The fake deals these tests from seed "abc": S8 C5 H6 S3 | C7 C10 S11 D2 | S9 C13 C14 D7 | …
async function startAbc(player) {
  server.state.nextSeeds.push("abc");
  return startGame(player);
}

test("an illegal move is IllegalMoveError with the engine's code, ruling, index and message; nothing is played", async () => {
  const api = await newPlayer();
  const game = await startAbc(api);
  const opening = game.state;
  assert.deepEqual(opening.room, ["S8", "C5", "H6", "S3"]);
  await assert.rejects(game.play("S8w"), (error) => {
    assert.ok(error instanceof IllegalMoveError);
    assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["weapon_not_usable", "R11", 0, "S8w"]);
    assert.equal(error.message, "Move 1: No weapon is equipped, so S8 can only be fought barehanded (R11).");
    assert.ok(error.cause instanceof ApiError && error.cause.status === 422);
    assert.equal(error.cause.body.error.code, "weapon_not_usable", "the 422's body is there as sent");
    return true;
  });
  assert.equal(game.state, opening, "the state is as it was");

  // Several moves: all or nothing. `moveIndex` counts in the whole game; the server's index and message in the request.
  await game.play("S3b");
  await assert.rejects(game.play(["H6", "D2"]), (error) => {
    assert.ok(error instanceof IllegalMoveError);
    assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["card_not_in_room", "R4", 2, "D2"]);
    assert.equal(error.message, "Move 2: D2 is not in the room; the room holds S8, C5 (R4).");
    assert.equal(error.cause.body.error.move_index, 1);
    assert.deepEqual(error.cause.errors, { moves: { 1: [error.message] } });
    return true;
  });
  assert.deepEqual((await game.refresh()).moves, ["S3b"], "the legal H6 was not played either");

  // A move after one that deals new cards would be judged against cards not yet face up: refused.
  await assert.rejects(game.play(["H6", "C5b", "C7b"]), (error) => {
    assert.ok(error instanceof IllegalMoveError);
    assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["room_not_dealt", null, 3, "C7b"]);
    return true;
  });
  assert.deepEqual((await game.play(["H6", "C5b"])).room, ["S8", "C7", "C10", "S11"], "two moves in one request");
});

test("a game stops at RULES.md's 200 moves: the next one is too_many_moves (easy avoids forever), a forfeit still ends it", async () => {
  const api = await newPlayer();
  server.state.nextSeeds.push("abc");
  const game = await startGame(api, { variant: "easy" });
  for (let i = 0; i < MAX_MOVES; i += 1) await game.play("flee"); // a flee deals: one a request
  assert.equal(game.moves.length, MAX_MOVES);
  await assert.rejects(game.play("flee"), (error) => {
    assert.ok(error instanceof IllegalMoveError);
    assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["too_many_moves", null, MAX_MOVES, "flee"]);
    assert.match(error.message, /^Move 1: a game has at most 200 moves/);
    return true;
  });
  assert.equal((await game.forfeit()).status, "forfeit");
});

test("a string outside the notation is a NotationError and is never sent", async () => {
  const api = await newPlayer();
  const game = await startGame(api);
  const sentBefore = server.state.requests.length;
  await assert.rejects(game.play(["flee", "S8"]), (error) => {
    assert.ok(error instanceof NotationError);
    assert.deepEqual([error.code, error.ruling, error.moveIndex, error.move], ["invalid_notation", "R2", 1, "S8"]);
    return true;
  });
  await assert.rejects(game.play([]), TypeError);
  assert.equal(server.state.requests.length, sentBefore);
});

test("expected_moves: a move racing another is a ConflictError and the state is refreshed; a retry never plays twice", async () => {
  const api = await newPlayer();
  const mine = await startAbc(api);
  const tab = await resumeGame(api, mine.id); // the same game, in another tab
  await mine.play("H6");
  assert.deepEqual(JSON.parse(server.state.requests.at(-1).body), { moves: ["H6"], expected_moves: 0 });

  await assert.rejects(tab.play("S3b"), (error) => {
    assert.ok(error instanceof ConflictError && error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.gameId], [409, "conflict", null]);
    assert.match(error.message, /409 The game has 1 move played; .* \(the game has 1 move now; its state is refreshed\)$/);
    return true;
  });
  assert.deepEqual(tab.moves, ["H6"], "the other tab now shows the move played");
  assert.deepEqual(tab.room, ["S8", "C5", "S3"]);

  // A retry of a request that did get through (its answer was lost) resolves, and plays nothing twice.
  const lost = await resumeGame(api, mine.id);
  await mine.play("S3b");
  const retried = await lost.play("S3b"); // `lost` saw one move played, as a client whose answer was lost
  assert.deepEqual(retried.moves, ["H6", "S3b"]);
  assert.equal(retried.health, 17);
  assert.deepEqual((await mine.refresh()).moves, ["H6", "S3b"]);

  // Two requests at once from two tabs: exactly one is applied.
  const [x, y] = [await resumeGame(api, mine.id), await resumeGame(api, mine.id)];
  const results = await Promise.allSettled([x.play("C5b"), y.play("S8b")]);
  assert.deepEqual(results.map((result) => result.status).sort(), ["fulfilled", "rejected"]);
  assert.ok(results.find((result) => result.status === "rejected").reason instanceof ConflictError);
  const now = await mine.refresh();
  assert.equal(now.moves.length, 3);
  assert.deepEqual([x.state, y.state].map((state) => state.moves), [now.moves, now.moves], "both tabs show it");

  // A forfeit gives up only the game as it was seen.
  await assert.rejects(tab.forfeit(), ConflictError);
  assert.equal(tab.state.status, "playing");
  assert.equal(tab.moves.length, 3);
});

test("forfeit: the game ends as forfeit, scored as dying at once (R18); the seed is revealed and checks out", async () => {
  const api = await newPlayer();
  const game = await startAbc(api);
  await game.play("H6");
  await game.play("S3b");
  const state = await game.forfeit();
  assert.deepEqual([state.status, state.over, state.forfeited, state.won, state.lost], ["forfeit", true, true, false, false]);
  assert.deepEqual(state.legalMoves, []);
  assert.deepEqual(JSON.parse(server.state.requests.at(-1).body), { expected_moves: 2 });
  const check = await game.verifyCommitment({ intervalMs: 5 });
  assert.equal(check.ok, true, JSON.stringify(check));
  assert.equal(check.verdict.outcome, "forfeit");
  const score = -(208 - 3); // every monster of the deck but S3
  assert.deepEqual([check.run.status, check.run.outcome, check.run.score, check.run.forfeit], ["verified", "forfeit", score, true]);
  assert.equal((await game.refresh()).score, score);

  await assert.rejects(game.forfeit(), ConflictError);
  await assert.rejects(game.play("S8b"), (error) => error instanceof ConflictError && /is over/.test(error.message));
});

test("the sealed daily: one deal for everyone, one game each (409 names it), the seed revealed after the day", async () => {
  const today = await sealedDaily(api);
  assert.deepEqual(Object.keys(today).sort(), ["commitment", "date", "seed"]);
  assert.equal(today.seed, null);

  const game = await startGame(api, { challenge: "daily" });
  assert.deepEqual([game.state.challenge, game.state.date, game.commitment], ["daily", today.date, today.commitment]);
  await assert.rejects(startGame(api, { challenge: "daily" }), (error) => {
    assert.ok(error instanceof ConflictError);
    assert.equal(error.gameId, game.id);
    return true;
  });
  const theirs = await startGame(other, { challenge: "daily" });
  assert.deepEqual(theirs.room, game.room, "the same deal for every player");
  await assert.rejects(startGame(api, { challenge: "daily", variant: "hard" }), { status: 422, code: "invalid" });

  const again = await resumeGame(api, game.id);
  await playOut(again);
  assert.ok(again.over);
  assert.equal(again.seed, null, "sealed until its UTC day is over");
  assert.deepEqual(await again.verifyCommitment(), { revealed: false });
  const run = await waitForVerdict(server.baseUrl, again.state.runId, { intervalMs: 5 });
  assert.equal(run.seed, null);
  assert.equal(run.challenge, "daily");

  server.state.today = "9999-12-31";
  try {
    const revealed = await again.refresh();
    assert.equal(await commitmentOf(revealed.seed), today.commitment);
    const check = await again.verifyCommitment({ intervalMs: 5 });
    assert.equal(check.ok, true, JSON.stringify(check));
  } finally {
    server.state.today = today.date;
  }
});

test("verifyCommitment catches a server that changed the deal: a seed off the commitment, a card not from the seed", async () => {
  const api = await newPlayer();
  let tamper = (game) => game;
  const fetch = async (url, init) => {
    const answer = await globalThis.fetch(url, init);
    if (!answer.ok) return answer;
    return new Response(JSON.stringify(tamper(await answer.json())), { status: answer.status });
  };
  server.state.nextSeeds.push("abc");
  const game = await startGame({ ...api, fetch });
  // The room after the first move shows H2 where the seed deals S8.
  tamper = (shown) => ({ ...shown, room: shown.room.map((card) => (card === "S8" ? "H2" : card)) });
  assert.deepEqual((await game.play("H6")).room, ["H2", "C5", "S3"]);
  tamper = (shown) => shown;
  await playOut(game);
  const honest = await game.verifyCommitment({ intervalMs: 5 });
  assert.equal(honest.commitmentMatches, true);
  assert.equal(honest.verdictMatches, true);
  assert.equal(honest.ok, false);
  assert.deepEqual(honest.mismatches, [{ moves: 1, field: "room", shown: ["H2", "C5", "S3"], dealt: ["S8", "C5", "S3"] }]);

  const swappedGame = await startGame({ ...api, fetch });
  await playOut(swappedGame);
  const swapped = "0".repeat(64);
  tamper = (shown) => ({ ...shown, seed: swapped });
  await swappedGame.refresh();
  const check = await swappedGame.verifyCommitment({ intervalMs: 5 });
  assert.deepEqual([check.ok, check.commitmentMatches, check.verdictMatches], [false, false, false]);
  assert.equal(check.mismatches.at(-1).field, "move", "the swapped seed does not deal the moves played");
});

test("another player's game being played is 404; a finished one anyone may read", async () => {
  const api = await newPlayer();
  const game = await startGame(api);
  await assert.rejects(resumeGame(other, game.id), { status: 404, code: "not_found" });
  const moved = await fetch(`${server.baseUrl}/v1/games/${game.id}/moves`, {
    method: "POST",
    headers: { Authorization: `Bearer ${other.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ moves: [game.legalMoves()[0]] }),
  });
  assert.equal(moved.status, 404);
  await assert.rejects(resumeGame({ ...other, token: "wrong" }, game.id), { status: 401, code: "unauthorized" });
  await game.forfeit();
  assert.equal((await resumeGame(other, game.id)).status, "forfeit", "its seed is revealed: anyone may check it");
  assert.equal((await resumeGame({ baseUrl: server.baseUrl }, game.id)).status, "forfeit");
  await assert.rejects(startGame({ baseUrl: server.baseUrl }), { status: 401, code: "unauthorized" });
  await assert.rejects(startGame(api, { variant: "nightmare" }), (error) => {
    assert.equal(error.code, "invalid");
    assert.deepEqual(Object.keys(error.errors), ["variant"]);
    return true;
  });
});

test("a client seed: the deck comes from the server seed next-deal committed to and the player's seed; both steps check out", async () => {
  const api = await newPlayer();
  const name = `player-${players}`;
  const { commitment } = await nextDeal(api, name);
  assert.equal((await nextDeal(api, name)).commitment, commitment, "fixed until the game starts");
  await assert.rejects(nextDeal(other, name), { status: 403 });
  const clientSeed = drawClientSeed();
  assert.ok(isValidSeed(clientSeed) && clientSeed.length === 22);
  const game = await startGame(api, { clientSeed, commitment });
  assert.equal(game.commitment, commitment);
  assert.equal(game.clientSeed, clientSeed);
  assert.equal(game.seed, null);
  assert.notEqual((await nextDeal(api, name)).commitment, commitment, "the start took it: a new one is drawn");
  await playOut(game);
  const { serverSeed, seed } = game;
  // recomputed here with node's own crypto, independently of the client's code
  assert.equal(createHash("sha256").update(serverSeed).digest("hex"), commitment);
  assert.equal(createHmac("sha256", serverSeed).update(clientSeed).digest("base64url"), seed);
  assert.equal(await dealtSeed(serverSeed, clientSeed), seed);
  assert.equal(seed.length, 43);
  const check = await game.verifyCommitment({ intervalMs: 5 });
  assert.deepEqual([check.ok, check.commitmentMatches, check.serverSeed, check.clientSeed], [true, true, serverSeed, clientSeed]);
});

test("verifyCommitment with a client seed catches a server seed off the commitment and a seed not derived from both", async () => {
  let tamper = (game) => game;
  const fetch = async (url, init) => {
    const answer = await globalThis.fetch(url, init);
    if (!answer.ok) return answer;
    return new Response(JSON.stringify(tamper(await answer.json())), { status: answer.status });
  };
  const api = { ...(await newPlayer()), fetch };
  const game = await startGame(api, { clientSeed: "mine" });
  await playOut(game);
  assert.equal((await game.verifyCommitment({ intervalMs: 5 })).ok, true);
  for (const change of [{ server_seed: "f".repeat(64) }, { client_seed: "theirs" }]) {
    tamper = (shown) => ({ ...shown, ...change });
    await game.refresh();
    const check = await game.verifyCommitment({ intervalMs: 5 });
    assert.deepEqual([check.ok, check.commitmentMatches], [false, false], JSON.stringify(change));
  }
  await assert.rejects(startGame(await newPlayer(), { clientSeed: "x", commitment: "0".repeat(64) }), /not the one next-deal showed/);
  await assert.rejects(startGame(await newPlayer(), { clientSeed: "not a seed" }), (error) => {
    assert.deepEqual(Object.keys(error.errors), ["client_seed"]);
    return true;
  });
});

test("one game in play per variant: a second is a ConflictError naming the first; gamesInPlay finds it again", async () => {
  const api = await newPlayer();
  const name = `player-${players}`;
  const first = await startGame(api);
  await assert.rejects(startGame(api), (error) => {
    assert.ok(error instanceof ConflictError);
    assert.equal(error.gameId, first.id);
    return true;
  });
  const easy = await startGame(api, { variant: "easy" });
  assert.deepEqual((await gamesInPlay(api, name)).map((game) => game.id), [first.id, easy.id]);
  await first.forfeit();
  assert.deepEqual((await gamesInPlay(api, name)).map((game) => game.id), [easy.id]);
  assert.notEqual((await startGame(api)).id, first.id);
  await assert.rejects(gamesInPlay(other, name), { status: 403 });
});
