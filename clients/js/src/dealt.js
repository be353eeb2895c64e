/**
 * Dealt games: the referee deals, the player sees only the cards face up.
 *
 * An open seed hands the whole deck to whoever holds it; a dealt game is
 * played move by move over HTTP instead (`POST /v1/games`, then
 * `/v1/games/<id>/moves`), and the client never holds the seed while it
 * plays: it shows the room, health, weapon and legal moves the server sends,
 * in the shape of a local `Game`. The server publishes its seed's SHA-256
 * (the commitment, `nextDeal`) before the player chooses a client seed of
 * their own, deals from both, and reveals the seeds after the end;
 * `verifyCommitment` then checks the hash and the derivation, replays the
 * game locally and compares every position the server showed.
 */

import { ApiError, ConflictError, endpoint, request, waitForVerdict } from "./api.js";
import { commitmentOf, dealtSeed } from "./commitment.js";
import { isValidSeed } from "./deal.js";
import { Game, IllegalMoveError, MoveError, NotationError, PLAYING } from "./game.js";
import { parseMove } from "./moves.js";
import { CLASSIC, armsAfter, potionDrunkAfter } from "./rules.js";
import { FORFEIT, LOST, WON } from "./verdict.js";

/** The `challenge` of the sealed daily game: one deal for everyone that UTC day, one game per player. */
export const DAILY = "daily";

const frozen = (list) => Object.freeze([...list]);

/**
 * The game JSON of the API as a frozen `state` in the shape of `Game#state`,
 * plus what only a dealt game has. `weapon`, `kills` and `lastKill` are cards
 * (as in `Game`), read from the moves; the JSON gives only their values.
 */
function stateOf(game) {
  const { weapon, kills } = armsAfter(game.moves);
  return Object.freeze({
    id: game.id,
    player: game.player,
    variant: game.variant,
    challenge: game.challenge,
    date: game.date,
    tournament: game.tournament ?? null,
    deal: game.deal ?? null,
    status: game.status,
    commitment: game.commitment,
    seed: game.seed,
    serverSeed: game.server_seed ?? null,
    clientSeed: game.client_seed ?? null,
    room: frozen(game.room),
    health: game.health,
    weapon,
    kills: frozen(kills),
    lastKill: kills.at(-1) ?? null,
    potionDrunk: potionDrunkAfter(game.moves),
    dungeonCount: game.cards_left,
    moves: frozen(game.moves),
    legalMoves: frozen(game.legal_moves),
    over: game.status !== PLAYING,
    won: game.status === WON,
    lost: game.status === LOST,
    forfeited: game.status === FORFEIT,
    score: game.score,
    runId: game.run_id,
    createdAt: game.created_at ?? null,
    endedAt: game.ended_at ?? null,
    closesAt: game.closes_at ?? null,
    closesIn: game.closes_in ?? null,
  });
}

/** The getters of a local Game that a DealtGame has too. */
const GAME_GETTERS = ["room", "health", "weapon", "kills", "lastKill", "dungeonCount", "moves", "over", "won", "lost", "score"];

/** The fields of a position that the seed decides, compared by `verifyCommitment`. */
const POSITION = ["room", "health", "weapon", "kills", "dungeonCount"];

/**
 * The refused move of a 422 answer to `/moves`: its `error` is the engine's
 * `{code, move_index, message, ruling}`, `move_index` counting in the
 * request (and so does the message's "Move N"), or null for a 422 that is
 * not about a move (malformed input: `errors` only).
 */
function refusedMove(body) {
  const error = body && typeof body === "object" ? body.error : null;
  return error && typeof error === "object" && typeof error.code === "string" && Number.isInteger(error.move_index)
    ? error
    : null;
}

/** The IllegalMoveError for an API error that refused one of `sent`, with `moveIndex` in the whole game; else null. */
function illegalMove(error, sent, played) {
  const refused = error instanceof ApiError && error.status === 422 ? refusedMove(error.body) : null;
  if (!refused) return null;
  const inGame = { ...refused, move_index: played + refused.move_index };
  return new IllegalMoveError(inGame, sent[refused.move_index] ?? null, { cause: error });
}

/** One request as `api` (`{baseUrl, token, fetch?, retry?}`) makes it; resolves to the answer's body. */
async function call(api, method, path, { body, signal } = {}) {
  const { fetch, retry, token } = api;
  const answer = await request(endpoint(api.baseUrl, path), { fetch, retry, method, token, body, signal });
  return answer.body;
}

const sameMoves = (a, b) => a.length === b.length && a.every((move, i) => move === b[i]);

/**
 * A game the referee deals, in the shape of a local `Game`: the same getters
 * (`room`, `health`, `weapon`, `lastKill`, `dungeonCount`, `over`, `score`,
 * …), `legalMoves()`, and `play`, which here is asynchronous. Get one with
 * `startGame` or `resumeGame`.
 */
export class DealtGame {
  #api;
  #state;
  #shown = new Map(); // moves played → the state the server showed then

  /** Use `startGame` or `resumeGame`; `game` is the API's game JSON. */
  constructor(api, game) {
    this.#api = api;
    this.#show(game);
  }

  #show(game) {
    this.#state = stateOf(game);
    this.#shown.set(this.#state.moves.length, this.#state);
    return this.#state;
  }

  async #call(method, path, options) {
    return this.#show(await call(this.#api, method, `/v1/games/${encodeURIComponent(this.#state.id)}${path}`, options));
  }

  /**
   * The game as the server last showed it, frozen: `{id, player, variant,
   * challenge, date, tournament and deal (a tournament's game: its id and
   * sealed deck, else null), status ("playing", "won", "lost", "forfeit"),
   * commitment, seed (null until revealed), serverSeed (with a client seed,
   * revealed with the seed), clientSeed (null without one), room, health,
   * weapon, kills, lastKill, potionDrunk (a potion was played in this room:
   * a further one has no effect, R8), dungeonCount, moves, legalMoves, over, won,
   * lost, forfeited, runId (null until the end), score (null until the run
   * is verified: `refresh()`), createdAt, endedAt, closesAt and closesIn
   * (a sealed daily in play: when its UTC day ends and it is forfeited,
   * R18, and the seconds to that from the response)}`.
   */
  get state() {
    return this.#state;
  }

  /**
   * Play one move, or several in order, and resolve to the new state. The
   * request says how many moves the game had (`expected_moves`), so a retry
   * can never play them twice.
   *
   * Throws, and nothing is played: NotationError for a string outside the
   * notation (before sending); IllegalMoveError for a move the rules forbid
   * (`code`, `ruling`, `moveIndex` in the whole game, the referee's
   * `message`, `move`; `cause` is the ApiError with the 422's body);
   * ConflictError when the game had moved on (another tab, or an earlier
   * try of this request that did get through): the state is refreshed
   * first, and if it now holds exactly the moves asked for, `play` resolves
   * instead. Any other failure is the request's ApiError.
   */
  async play(moves, { signal } = {}) {
    const sent = Array.isArray(moves) ? [...moves] : [moves];
    if (!sent.length) throw new TypeError("play needs a move, or a non-empty array of moves");
    const played = this.#state.moves;
    sent.forEach((move, i) => {
      if (parseMove(move) === null) throw new NotationError(move, played.length + i);
    });
    const body = { moves: sent, expected_moves: played.length };
    try {
      return await this.#call("POST", "/moves", { body, signal });
    } catch (error) {
      if (error instanceof ConflictError) return this.#afterConflict(error, [...played, ...sent], signal);
      throw illegalMove(error, sent, played.length) ?? error;
    }
  }

  /** A 409: show the game as it is now; `wanted` were played after all (an earlier try got through), or throw. */
  async #afterConflict(error, wanted, signal) {
    const now = await this.refresh({ signal });
    if (wanted && sameMoves(now.moves, wanted)) return now;
    const count = `${now.moves.length} ${now.moves.length === 1 ? "move" : "moves"}`;
    throw new ConflictError(`${error.message} (the game has ${count} now; its state is refreshed)`, {
      body: error.body,
      cause: error,
    });
  }

  /**
   * Give the game up: it ends as `forfeit`, scored as dying at once (R18),
   * and a free game's seed is revealed. Resolves to the new state. Only the
   * game as this object last saw it is given up: ConflictError (the state
   * refreshed) if it had moved on, or was over.
   */
  async forfeit({ signal } = {}) {
    try {
      return await this.#call("POST", "/forfeit", { body: { expected_moves: this.#state.moves.length }, signal });
    } catch (error) {
      if (error instanceof ConflictError) return this.#afterConflict(error, null, signal);
      throw error;
    }
  }

  /** Read the game again (`GET /v1/games/<id>`), e.g. to see a sealed daily's seed once its day is over. */
  refresh({ signal } = {}) {
    return this.#call("GET", "", { signal });
  }

  /**
   * Check the deal once the seed is revealed: SHA-256(server seed) must be
   * the commitment shown from the start (the server seed is the seed itself
   * unless a client seed was given); with a client seed, the seed must be
   * `dealtSeed(server seed, client seed)`; the seed must deal every position the
   * server showed this object (room, health, weapon, kills, cards left);
   * and the game's run, once judged (polled as `waitForVerdict` does, with
   * its `intervalMs` and `timeoutMs`), must hold the game's seed and moves
   * and the verdict of the local replay.
   *
   * Resolves to `{revealed: false}` while the seed is sealed (a game still
   * played, a sealed daily before its day is over: `refresh()` later), else
   * `{revealed: true, ok, seed, serverSeed, clientSeed, commitmentMatches,
   * verdict, run, verdictMatches, mismatches}`: `commitmentMatches` covers
   * both steps (the hash and the derivation), `verdict` is the local replay's (null if
   * the seed's deal refuses a move played), `run` the server's,
   * `mismatches` each `{moves, field, shown, dealt}` where a position
   * differs after that many moves (field `move`: the seed's deal refuses
   * that move; `seed`: not a seed at all).
   */
  async verifyCommitment({ intervalMs, timeoutMs, signal } = {}) {
    const { seed, commitment, moves, status, runId, clientSeed } = this.#state;
    if (seed === null) return { revealed: false };
    const serverSeed = clientSeed ? this.#state.serverSeed : seed;
    const commitmentMatches =
      typeof serverSeed === "string" &&
      (await commitmentOf(serverSeed)) === commitment &&
      (await dealtSeed(serverSeed, clientSeed)) === seed;
    const { verdict, mismatches } = await this.#replayed(seed);
    const { baseUrl, fetch, token } = this.#api;
    const run = await waitForVerdict(baseUrl, runId, { intervalMs, timeoutMs, fetch, token, signal });
    const verdictMatches =
      verdict?.outcome === status &&
      run.seed === seed &&
      sameMoves(run.moves, moves) &&
      ["status", "outcome", "score", "health"].every((field) => run[field] === verdict[field]);
    const ok = commitmentMatches && verdictMatches && !mismatches.length;
    return { revealed: true, ok, seed, serverSeed, clientSeed, commitmentMatches, verdict, run, verdictMatches, mismatches };
  }

  /**
   * The game replayed on the deal of `seed`: the verdict (null if the deal
   * refuses a move played), and where a position differs from the one shown.
   */
  async #replayed(seed) {
    if (!isValidSeed(seed)) return { verdict: null, mismatches: [{ moves: 0, field: "seed", shown: seed, dealt: null }] };
    const local = await Game.start(seed, this.#state.variant);
    const found = [];
    const compare = (count) => {
      const shown = this.#shown.get(count);
      if (!shown) return;
      const dealt = local.state;
      for (const field of POSITION) {
        if (JSON.stringify(shown[field]) !== JSON.stringify(dealt[field])) {
          found.push({ moves: count, field, shown: shown[field], dealt: dealt[field] });
        }
      }
    };
    compare(0);
    for (const [i, move] of this.#state.moves.entries()) {
      try {
        local.play(move);
      } catch (error) {
        if (!(error instanceof MoveError)) throw error;
        return { verdict: null, mismatches: [...found, { moves: i, field: "move", shown: move, dealt: error.message }] };
      }
      compare(i + 1);
    }
    return { verdict: local.verdict({ forfeit: this.#state.status === FORFEIT }), mismatches: found };
  }

  /** The legal moves the server lists, in room order, `flee` last (empty once the game is over). */
  legalMoves() {
    return [...this.#state.legalMoves];
  }
  isLegal(notation) {
    return this.#state.legalMoves.includes(notation);
  }
}

// The getters of a local Game (and the game's own), each read from `state`; a list is a copy, as Game gives it.
for (const field of ["id", "variant", "status", "commitment", "seed", "serverSeed", "clientSeed", "runId", ...GAME_GETTERS]) {
  Object.defineProperty(DealtGame.prototype, field, {
    get() {
      const value = this.state[field];
      return Array.isArray(value) ? [...value] : value;
    },
  });
}

/**
 * Start a dealt game (`POST /v1/games`) and resolve to its DealtGame.
 * `api` is `{baseUrl, token, fetch?, retry?}`: the API, the player's token, a
 * fetch other than the global one if need be, and how a 429 or 503 is retried
 * (`request`'s `retry`, RETRY by default). `clientSeed` (1-64 of
 * `A-Z a-z 0-9 _ -`, e.g. `drawClientSeed()`) makes the deck come from the
 * server seed `nextDeal` committed to and this seed together; give
 * `commitment` (what `nextDeal` showed) to have the start rejected with an
 * Error if the game's commitment is another. `challenge: "daily"` is the
 * sealed daily (classic only, no client seed). `tournament` (an id, `GET
 * /v1/tournaments`) deals a game of that tournament, in its variant, on its
 * sealed deck `deal` if given (else the first with an attempt left); it
 * takes no challenge and no client seed. A second game of a variant (or of
 * the tournament) while one is in play, or a second sealed daily the same
 * day, throws ConflictError with the first one's `gameId` (play on with
 * `resumeGame`).
 */
export async function startGame(api, { variant, challenge, tournament, deal, clientSeed, commitment, signal } = {}) {
  const body = tournament === undefined ? { variant: variant ?? CLASSIC } : { tournament }; // a tournament's: its own
  if (tournament !== undefined && variant !== undefined) body.variant = variant;
  if (challenge !== undefined) body.challenge = challenge;
  if (deal !== undefined) body.deal = deal;
  if (clientSeed !== undefined) body.client_seed = clientSeed;
  const game = new DealtGame(api, await call(api, "POST", "/v1/games", { body, signal }));
  if (commitment !== undefined && game.commitment !== commitment) {
    throw new Error(`The game's commitment ${game.commitment} is not the one next-deal showed (${commitment}).`);
  }
  return game;
}

/**
 * The commitment to the server seed of `player`'s next free game
 * (`GET /v1/players/<player>/next-deal`, the player's own token):
 * `{commitment}`, fixed until that game starts. Read it before choosing a
 * client seed.
 */
export function nextDeal(api, player, { signal } = {}) {
  return call(api, "GET", `/v1/players/${encodeURIComponent(player)}/next-deal`, { signal });
}

/** `player`'s games in play (`GET /v1/players/<player>/games?status=playing`), as DealtGames: resume one whose id was lost. */
export async function gamesInPlay(api, player, { signal } = {}) {
  const { games } = await call(api, "GET", `/v1/players/${encodeURIComponent(player)}/games?status=playing`, { signal });
  return games.map((game) => new DealtGame(api, game));
}

/** A dealt game by id (`GET /v1/games/<id>`): play on after a reload, or read a finished one. */
export async function resumeGame(api, id, { signal } = {}) {
  return new DealtGame(api, await call(api, "GET", `/v1/games/${encodeURIComponent(id)}`, { signal }));
}

/** Today's sealed daily (`GET /v1/daily/sealed`): `{date, commitment, seed}`, the seed null until the day is over. */
export function sealedDaily(api, { signal } = {}) {
  return call(api, "GET", "/v1/daily/sealed", { signal });
}
