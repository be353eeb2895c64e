#!/usr/bin/env node
// Deal a dungeon, play it out with a simple strategy, check the verdict
// locally, then submit the run and wait for the referee's verdict.
//
//   SCOUNDREL_URL=http://127.0.0.1:8000 SCOUNDREL_TOKEN=<token> node clients/js/examples/play-and-submit.mjs
//
// Environment: SCOUNDREL_URL (the API; without it a local fake server from
// tools/fake-server.js stands in), SCOUNDREL_TOKEN (a player's token; without
// it a player named SCOUNDREL_PLAYER, default "example-<time>", is registered),
// SEED (default "example": any seed deals a game; today's daily seed is the
// one GET /v1/daily answers), VARIANT (classic, easy or hard).
//
// The API allows a token 10 requests a second and 300 a minute (the service's defaults,
// SCOUNDREL_RATE_LIMIT_TOKEN); the client waits out a 429's Retry-After and sends the
// request again (RETRY in src/api.js: 3 retries, 10 s of waiting at most), so a game
// played faster than that pauses for a second now and then.
import { ApiError, Game, VALUE, VARIANTS, isValidSeed, registerPlayer, submitRun, waitForVerdict } from "../src/index.js";

/** A simple player: heal when hurt, take a stronger weapon, use the weapon while it may fight, else the smallest monster. */
function chooseMove(game) {
  const legal = game.legalMoves();
  const card = (move) => move.replace(/[wb]$/, "");
  const value = (move) => VALUE[card(move)];
  const potions = legal.filter((move) => move[0] === "H");
  const weapons = legal.filter((move) => move[0] === "D");
  const withWeapon = legal.filter((move) => move.endsWith("w"));
  const barehanded = legal.filter((move) => move.endsWith("b"));
  const byValue = (a, b) => value(a) - value(b);
  if (potions.length && game.health <= 12) return potions.sort(byValue).at(-1);
  const stronger = weapons.filter((move) => game.weapon === null || value(move) > VALUE[game.weapon]);
  if (stronger.length) return stronger.sort(byValue).at(-1);
  if (withWeapon.length) return withWeapon.sort(byValue).at(-1);
  const threat = game.room.filter((c) => c[0] === "S" || c[0] === "C").reduce((sum, c) => sum + VALUE[c], 0);
  if (legal.includes("flee") && threat >= game.health) return "flee";
  if (potions.length) return potions.sort(byValue).at(-1);
  if (weapons.length) return weapons[0];
  if (barehanded.length) return barehanded.sort(byValue)[0];
  return legal[0];
}

const seed = process.env.SEED ?? "example";
const variant = process.env.VARIANT ?? "classic";

/** A setting the example cannot use: one line saying why, exit status 2. */
function refuse(message) {
  console.error(`play-and-submit: ${message}`);
  process.exit(2);
}
if (!isValidSeed(seed)) refuse(`SEED ${JSON.stringify(seed)} is not a seed: use 1-64 characters from A-Z a-z 0-9 _ -`);
if (!VARIANTS.includes(variant)) refuse(`VARIANT ${JSON.stringify(variant)} is not one of ${VARIANTS.join(", ")}`);

const game = await Game.start(seed, variant);
while (!game.over) game.play(chooseMove(game));
const local = game.verdict();
console.log(`${seed} (${variant}): ${game.moves.length} moves, ${local.outcome}, score ${local.score}`);

let fake = null;
let baseUrl = process.env.SCOUNDREL_URL;
if (!baseUrl) {
  const { startFakeServer } = await import("../tools/fake-server.js");
  fake = await startFakeServer();
  baseUrl = fake.baseUrl;
  console.log(`no SCOUNDREL_URL: using a local fake server at ${baseUrl}`);
}

try {
  let token = process.env.SCOUNDREL_TOKEN;
  if (!token) {
    const player = await registerPlayer(baseUrl, process.env.SCOUNDREL_PLAYER ?? `example-${Date.now()}`);
    token = player.token;
    console.log(`registered ${player.name}`);
  }
  const { run, created, location } = await submitRun(baseUrl, token, game.toSubmission());
  console.log(`${created ? "submitted" : "already submitted"}: run ${run.id} at ${location}`);
  const judged = await waitForVerdict(baseUrl, run.id, { intervalMs: 250, timeoutMs: 30000 });
  console.log(`referee: ${judged.status}`, judged.status === "verified" ? `${judged.outcome}, score ${judged.score}` : judged.error);
  if (judged.status === "verified" && judged.score !== local.score) {
    console.error("the referee's score differs from the local one");
    process.exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  console.error(`API error ${error.status ?? ""} ${error.code}: ${error.message}`);
  if (error.errors) console.error(JSON.stringify(error.errors, null, 2));
  if (error.retryAfter !== null) console.error(`retry after ${error.retryAfter} s`);
  process.exitCode = 1;
} finally {
  await fake?.close();
}
