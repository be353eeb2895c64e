// The fake server's dealt games, following the service's contract:
// POST /v1/games, GET /v1/games/<id>, POST /v1/games/<id>/moves and /forfeit,
// GET /v1/daily/sealed, GET /v1/players/<name>/next-deal and
// /games?status=playing. Dealt by this module's engine from a hidden seed (the
// player's next server seed of 64 hex characters, with their client seed if
// they give one, or the day's sealed seed) and shown face up only, as the
// service's dealer does; the seed is revealed at the end, a sealed daily's
// once its UTC day is over (`state.today`, the fake's clock, moves it on).
// Every game answer is built from the service's OpenAPI document
// (./game-schema.js): its fields in its order, or a 500 if they do not fit.
import { createHash, createHmac, randomBytes } from "node:crypto";

import { DAILY, MAX_MOVES, PLAYING, VALUE, VARIANTS, deal, isValidSeed, parseMove } from "../src/index.js";
import { RuleViolation, apply, isLost, isWon, legalMoves, start } from "../src/rules.js";
import { MOVE_MESSAGE } from "../src/submission.js";
import { FORFEIT, LOST, WON, ruleError } from "../src/verdict.js";
import { gameAnswer } from "./game-schema.js";

const MALFORMED = "The request is malformed; see errors for each field.";
const MAX_BATCH = 50; // moves one request may carry
const NO_GAME = "No such game.";
const PATH = /^\/v1\/games(?:\/([^/]+)(\/moves|\/forfeit)?)?$/;
const PLAYER_PATH = /^\/v1\/players\/([^/?]+)\/(next-deal|games\?status=playing|games)$/;

const sha256 = (text) => createHash("sha256").update(text).digest("hex");
const dealtFrom = (serverSeed, clientSeed) =>
  clientSeed ? createHmac("sha256", serverSeed).update(clientSeed).digest("base64url") : serverSeed;
const copy = (state) => ({ ...state, room: [...state.room], dungeon: [...state.dungeon], kills: [...state.kills] });

/** Today's UTC date, the fake's clock until a test moves `state.today`. */
export const utcToday = () => new Date().toISOString().slice(0, 10);

/**
 * Apply `moves` to a copy of `position` (after `played` moves), all or none,
 * as the service's dealer judges them: the first move beyond RULES.md's
 * MAX_MOVES (`too_many_moves`), the first illegal move, or the first move
 * after one that dealt new cards (`room_not_dealt`: it would be judged
 * against cards not yet face up) is refused, with its index in the request.
 */
function judge(position, variant, played, moves) {
  if (played + moves.length > MAX_MOVES) {
    const index = Math.max(0, MAX_MOVES - played);
    const message =
      `Move ${index + 1}: a game has at most ${MAX_MOVES} moves (RULES.md) and ${played} are played; ` +
      "past that it can only be forfeited.";
    return { refused: { code: "too_many_moves", move_index: index, message, ruling: null } };
  }
  const state = copy(position);
  let dealing = null;
  for (const [index, notation] of moves.entries()) {
    if (dealing !== null) {
      const message =
        `Move ${index + 1}: move ${dealing + 1} deals new cards into the room, so the moves after it are ` +
        "judged only once those cards are face up; send them in another request.";
      return { refused: { code: "room_not_dealt", move_index: index, message, ruling: null } };
    }
    try {
      if (apply(state, parseMove(notation), variant).dealt.length) dealing = index;
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      return { refused: ruleError(error.violation, index) };
    }
  }
  return { state };
}

/**
 * The routes of dealt games. `fail(response, status, message, {errors,
 * headers, extra})` and `send` answer in the service's shapes,
 * `playerOf(request)` is the bearer token's player (undefined without a
 * token, null for a wrong one), `createRun(player, fields)` queues a run as
 * a submission would and `runOf(id)` reads it, `state` holds `today` and
 * `nextSeeds`.
 */
export function dealtGames({ fail, send, playerOf, createRun, runOf, state }) {
  const games = new Map(); // id -> game
  const dailyGames = new Map(); // date|player -> id
  const nextDeals = new Map(); // player -> the server seed of their next free game
  const nextDealOf = (player) => {
    if (!nextDeals.has(player)) nextDeals.set(player, state.nextSeeds.shift() ?? randomBytes(32).toString("hex"));
    return nextDeals.get(player);
  };
  const inPlay = (player) => [...games.values()].filter((game) => game.player === player && game.status === PLAYING);
  const sealedSeed = (date) => sha256(`fake sealed daily secret:${date}`);
  const revealed = (game) => game.status !== PLAYING && (game.challenge === null || game.date < state.today);

  function shown(game) {
    const { position } = game;
    const run = game.runId && runOf(game.runId);
    const lastKill = position.kills.at(-1);
    return gameAnswer({
      id: game.id,
      player: game.player,
      variant: game.variant,
      challenge: game.challenge,
      date: game.date,
      tournament: null, // the fake runs no tournaments
      deal: null,
      status: game.status,
      commitment: game.commitment,
      seed: revealed(game) ? game.seed : null,
      server_seed: revealed(game) && game.clientSeed ? game.serverSeed : null,
      client_seed: game.clientSeed,
      room: [...position.room],
      health: position.health,
      weapon: position.weapon === null ? null : VALUE[position.weapon],
      last_kill: lastKill === undefined ? null : VALUE[lastKill],
      cards_left: position.dungeon.length,
      moves: [...game.moves],
      legal_moves: game.status === PLAYING ? legalMoves(position, game.variant) : [],
      run_id: game.runId,
      score: run?.status === "verified" ? run.score : null,
      created_at: game.createdAt,
      ended_at: game.endedAt,
      ...closing(game),
    });
  }

  function closing(game) {
    if (game.challenge !== DAILY || game.status !== PLAYING) return { closes_at: null, closes_in: null };
    const closes = Date.parse(`${game.date}T00:00:00Z`) + 86_400_000;
    return { closes_at: new Date(closes).toISOString(), closes_in: Math.max(0, (closes - Date.now()) / 1000) };
  }

  function end(game, status) {
    game.status = status;
    game.endedAt = new Date().toISOString();
    const { seed, variant, moves, id: game_id, challenge, date } = game;
    const dealt = { origin: "dealt", game_id, challenge, date, forfeit: status === FORFEIT };
    game.runId = createRun(game.player, { seed, variant, moves: [...moves], ...dealt }).id;
  }

  async function begin(response, player, payload) {
    const errors = startErrors(payload ?? {});
    if (errors) return fail(response, 422, MALFORMED, { errors });
    const variant = payload?.variant ?? "classic";
    const challenge = payload?.challenge ?? null;
    const date = challenge === DAILY ? state.today : null;
    const clientSeed = payload?.client_seed ?? null;
    const serverSeed = challenge === DAILY ? sealedSeed(date) : nextDealOf(player);
    const seed = dealtFrom(serverSeed, clientSeed);
    const position = start(await deal(seed));
    // No await from here on: two racing starts of one player's never both begin a game.
    const dailyKey = `${date}|${player}`;
    const playing = challenge === DAILY ? undefined : inPlay(player).find((game) => game.variant === variant && !game.challenge);
    if (playing) {
      return fail(response, 409, `You have a ${variant} game in play; finish or forfeit it first.`, {
        extra: { game_id: playing.id },
      });
    }
    if (challenge !== DAILY && nextDealOf(player) !== serverSeed) return begin(response, player, payload);
    if (challenge === DAILY && dailyGames.has(dailyKey)) {
      const existing = dailyGames.get(dailyKey);
      return fail(response, 409, "You have already started today's sealed daily game.", {
        extra: { game_id: existing },
        headers: { Location: `/v1/games/${existing}` },
      });
    }
    const id = randomBytes(16).toString("hex");
    const createdAt = new Date().toISOString();
    const game = { id, player, variant, challenge, date, seed, serverSeed, clientSeed, position, moves: [] };
    Object.assign(game, { commitment: sha256(serverSeed), status: PLAYING, runId: null, createdAt, endedAt: null });
    games.set(id, game);
    if (challenge === DAILY) dailyGames.set(dailyKey, id);
    else nextDeals.delete(player);
    return send(response, 201, shown(game), { Location: `/v1/games/${id}` });
  }

  // No await in here either: of two requests racing on one game, one applies and the other gets 409.
  function act(response, game, action, payload) {
    const errors = (action === "/moves" ? moveErrors : forfeitErrors)(payload ?? {});
    if (errors) return fail(response, 422, MALFORMED, { errors });
    const count = game.moves.length;
    const expected = payload?.expected_moves ?? null;
    if (expected !== null && expected !== count) {
      return fail(response, 409, `The game has ${count} ${count === 1 ? "move" : "moves"} played; read it and send the next moves again.`, {
        extra: { moves: count },
      });
    }
    if (game.status !== PLAYING) return fail(response, 409, `The game is over (${game.status}); no move may follow.`);
    if (action === "/forfeit") {
      end(game, FORFEIT);
      return send(response, 200, shown(game));
    }
    const { refused, state: position } = judge(game.position, game.variant, count, payload.moves);
    if (refused) {
      const errors = { moves: { [refused.move_index]: [refused.message] } };
      return fail(response, 422, refused.message, { errors, extra: { error: refused } });
    }
    game.position = position;
    game.moves.push(...payload.moves);
    if (isLost(position) || isWon(position)) end(game, isLost(position) ? LOST : WON);
    return send(response, 200, shown(game));
  }

  return async function route(request, response, payload) {
    if (request.method === "GET" && request.url === "/v1/daily/sealed") {
      send(response, 200, { date: state.today, commitment: sha256(sealedSeed(state.today)), seed: null });
      return true;
    }
    const own = PLAYER_PATH.exec(request.url);
    if (own && request.method === "GET") {
      const player = playerOf(request);
      if (!player) fail(response, 401, "A valid bearer token is required.");
      else if (decodeURIComponent(own[1]).toLowerCase() !== player.toLowerCase()) {
        fail(response, 403, "Only the player themselves may see this, with their own token.");
      } else if (own[2] === "next-deal") send(response, 200, { commitment: sha256(nextDealOf(player)) });
      else send(response, 200, { games: inPlay(player).map(shown) });
      return true;
    }
    const found = PATH.exec(request.url);
    if (!found) return false;
    const [, id, action] = found;
    const player = playerOf(request);
    const game = id === undefined ? undefined : games.get(decodeURIComponent(id));
    if (request.method === "GET" && id !== undefined && !action) {
      // Only its player sees a game until its seed is revealed; to anyone else it does not exist.
      if (player === null) fail(response, 401, "A valid bearer token is required.");
      else if (!game || (game.player !== player && !revealed(game))) fail(response, 404, NO_GAME);
      else send(response, 200, shown(game));
      return true;
    }
    if (request.method !== "POST" || (id === undefined) !== (action === undefined)) return false;
    if (!player) fail(response, 401, "A valid bearer token is required.");
    else if (id === undefined) await begin(response, player, payload);
    else if (!game || game.player !== player) fail(response, 404, NO_GAME);
    else act(response, game, action, payload);
    return true;
  };
}

function fieldErrors(payload, check) {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return { _schema: ["Invalid input type."] };
  const errors = {};
  check(payload, errors);
  return Object.keys(errors).length ? errors : null;
}

function unknownFields(payload, known, errors) {
  for (const field of Object.keys(payload)) if (!known.includes(field)) errors[field] = ["Unknown field."];
}

function expectedMovesErrors({ expected_moves: expected }, errors) {
  if (expected !== undefined && expected !== null && !(Number.isInteger(expected) && expected >= 0)) {
    errors.expected_moves = ["Must be greater than or equal to 0."];
  }
}

const startErrors = (payload) =>
  fieldErrors(payload, ({ variant, challenge, client_seed: clientSeed }, errors) => {
    unknownFields(payload, ["variant", "challenge", "client_seed"], errors);
    if (clientSeed !== undefined && clientSeed !== null && !isValidSeed(clientSeed)) {
      errors.client_seed = ["A client seed is 1-64 characters from A-Z a-z 0-9 _ -."];
    } else if (clientSeed && challenge === DAILY) {
      errors.client_seed = ["The sealed daily is one deal for everyone: it takes no client seed."];
    }
    if (variant !== undefined && !VARIANTS.includes(variant)) errors.variant = [`Must be one of: ${VARIANTS.join(", ")}.`];
    if (challenge !== undefined && challenge !== null && challenge !== DAILY) errors.challenge = [`Must be one of: ${DAILY}.`];
    else if (challenge === DAILY && variant !== undefined && variant !== "classic") {
      errors.variant = ["The sealed daily is played in the classic variant."];
    }
  });

const moveErrors = (payload) =>
  fieldErrors(payload, ({ moves }, errors) => {
    unknownFields(payload, ["moves", "expected_moves"], errors);
    expectedMovesErrors(payload, errors);
    if (moves === undefined) errors.moves = ["Missing data for required field."];
    else if (!Array.isArray(moves)) errors.moves = ["Not a valid list."];
    else if (moves.length < 1) errors.moves = ["Moves must hold at least one move."];
    else if (moves.length > MAX_BATCH) errors.moves = [`At most ${MAX_BATCH} moves are allowed in one request.`];
    else {
      const byIndex = {};
      moves.forEach((notation, index) => {
        if (parseMove(notation) === null) byIndex[index] = [MOVE_MESSAGE];
      });
      if (Object.keys(byIndex).length) errors.moves = byIndex;
    }
  });

const forfeitErrors = (payload) =>
  fieldErrors(payload, (body, errors) => {
    unknownFields(payload, ["expected_moves"], errors);
    expectedMovesErrors(body, errors);
  });
