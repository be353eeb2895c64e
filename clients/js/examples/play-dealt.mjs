#!/usr/bin/env node
// Play a game the referee deals, seeing only the cards face up, then check
// the deal: the revealed seed against the commitment shown before the first
// card, and the referee's verdict against a local replay.
//
//   SCOUNDREL_URL=http://127.0.0.1:8000 SCOUNDREL_TOKEN=<token> node clients/js/examples/play-dealt.mjs
//
// Environment: SCOUNDREL_URL (the API; without it a local fake server from
// tools/fake-server.js stands in), SCOUNDREL_TOKEN (a player's token; without
// it a player named SCOUNDREL_PLAYER, default "dealt-<time>", is registered),
// VARIANT (classic, easy or hard), CHALLENGE ("daily" for the sealed daily:
// its seed, and so the check, waits until the UTC day is over; one a player a
// day, so a second run that day plays on the unfinished one or says it is over).
//
// The API allows a token 10 requests a second and 300 a minute (the service's defaults,
// SCOUNDREL_RATE_LIMIT_TOKEN); the client waits out a 429's Retry-After and sends the
// request again (RETRY in src/api.js: 3 retries, 10 s of waiting at most), so a game
// played faster than that pauses for a second now and then.
import { ApiError, ConflictError, MoveError, VALUE, registerPlayer, resumeGame, startGame } from "../src/index.js";

/** A cautious player who sees only the state: a weapon fight, a weapon, a potion when hurt, else the weakest monster. */
function chooseMove({ legalMoves, health }) {
  const value = (move) => VALUE[move.replace(/[wb]$/, "")];
  const weakestFirst = [...legalMoves].sort((a, b) => value(a) - value(b));
  return (
    weakestFirst.findLast((move) => move.endsWith("w")) ??
    weakestFirst.findLast((move) => move[0] === "D") ??
    weakestFirst.findLast((move) => move[0] === "H" && health < 20) ??
    weakestFirst.find((move) => move.endsWith("b")) ??
    legalMoves[0]
  );
}

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
    const player = await registerPlayer(baseUrl, process.env.SCOUNDREL_PLAYER ?? `dealt-${Date.now()}`);
    token = player.token;
    console.log(`registered ${player.name}`);
  }
  const api = { baseUrl, token };
  let overAlready = false; // the day's sealed daily, played to its end by an earlier run
  const game = await startGame(api, { variant: process.env.VARIANT ?? "classic", challenge: process.env.CHALLENGE }).catch(
    async (error) => {
      if (!(error instanceof ConflictError && error.gameId)) throw error;
      const started = await resumeGame(api, error.gameId);
      overAlready = started.over;
      console.log(overAlready ? "today's sealed daily is over already (one a player a day): nothing to play"
        : "today's sealed daily was started already: playing on");
      return started;
    },
  );
  console.log(`game ${game.id} (${game.variant}), commitment ${game.commitment}`);
  while (!game.over) await game.play(chooseMove(game.state));
  const { status, moves, seed } = game.state;
  console.log(`${overAlready ? "it ended " : ""}${status} after ${moves.length} moves`);
  if (seed === null) {
    console.log("the seed is sealed until the UTC day is over: check again tomorrow");
  } else {
    const check = await game.verifyCommitment({ intervalMs: 250, timeoutMs: 30000 });
    console.log(`seed ${seed}: SHA-256 ${check.commitmentMatches ? "matches" : "does NOT match"} the commitment`);
    console.log(`referee: ${check.run.status} ${check.run.outcome}, score ${check.run.score}; ` +
      `local replay: ${check.verdict.outcome}, score ${check.verdict.score}`);
    for (const { moves: count, field, shown, dealt } of check.mismatches) {
      console.error(`after ${count} moves the server showed ${field} ${JSON.stringify(shown)}, the seed deals ${JSON.stringify(dealt)}`);
    }
    console.log(check.ok ? "the deal checks out" : "the deal does NOT check out");
    if (!check.ok) process.exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof ApiError || error instanceof MoveError)) throw error;
  console.error(`${error.name} ${error.status ?? ""} ${error.code}: ${error.message}`);
  if (error.errors) console.error(JSON.stringify(error.errors, null, 2));
  process.exitCode = 1;
} finally {
  await fake?.close();
}
