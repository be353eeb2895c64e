// A tiny stand-in for the referee's HTTP API (node:http), following the
// contract of issue 7: players, runs, batches of runs, 401/409/413/422/429/503 and Retry-After,
// errors in the service's shape {code, status, message, errors?}; and issue 10's dealt games
// (tools/fake-games.js).
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

import { Game, batchErrors, replay, submissionErrors } from "../src/index.js";
import { dealtGames, utcToday } from "./fake-games.js";

const MALFORMED = "The request is malformed; see errors for each field.";

const STATUS_TEXT = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  409: "Conflict",
  413: "Request Entity Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

// As the service with SCOUNDREL_CORS_ORIGINS=*: a page from another origin may call it (examples/play.html).
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
  "Access-Control-Expose-Headers": "Location, Retry-After",
};

export async function startFakeServer({ port = 0 } = {}) {
  const players = new Map(); // token -> name
  const runs = new Map(); // id -> run
  const byPlayerGame = new Map(); // player|seed|variant|moves -> id
  const state = {
    rateLimitNext: 0, // answer the next N requests with 429
    unavailableNext: 0, // answer the next N requests with 503
    pendingPolls: 1, // GETs that still see "pending" before the verdict shows
    maxBodyBytes: 4 * 1024 * 1024, // larger bodies get 413, as the service's max_body_bytes
    nextSeeds: [], // the seeds the next free dealt games are dealt from, instead of fresh random ones
    today: utcToday(), // the UTC date of the sealed daily; a later one ends its day and reveals its seed
    requests: [],
    responses: [], // {method, url, status, headers, body}: every answer, as sent
  };

  async function body(request) {
    let text = "";
    for await (const chunk of request) text += chunk;
    return text;
  }

  function send(response, status, payload, headers = {}) {
    const sent = { "Content-Type": "application/json", ...CORS, ...headers };
    const text = payload === undefined ? "" : JSON.stringify(payload);
    const { method, url } = response.req;
    state.responses.push({ method, url, status, headers: sent, body: text });
    response.writeHead(status, sent);
    response.end(text);
  }

  // Every error has the service's one JSON shape: {code, status, message, errors?}, and what else
  // an answer carries (`extra`: a refused move's `error`, a conflicting game's `game_id`).
  function fail(response, status, message, { errors, headers, extra } = {}) {
    const body = { code: status, status: STATUS_TEXT[status], message, ...extra };
    if (errors) body.errors = errors;
    send(response, status, body, headers);
  }

  // The bearer token's player: undefined without a token, null for a wrong one.
  function playerOf(request) {
    if (request.headers.authorization === undefined) return undefined;
    const match = /^Bearer (.+)$/.exec(request.headers.authorization);
    return (match && players.get(match[1])) ?? null;
  }

  const server = createServer(async (request, response) => {
    const text = await body(request);
    if (request.method === "OPTIONS") return send(response, 204); // a browser's CORS preflight
    state.requests.push({ method: request.method, url: request.url, headers: request.headers, body: text });
    if (Buffer.byteLength(text) > state.maxBodyBytes) {
      return fail(response, 413, "The body is larger than the service accepts.");
    }
    if (state.unavailableNext > 0) {
      state.unavailableNext -= 1;
      return fail(response, 503, "Storage is unavailable; try again shortly.", { headers: { "Retry-After": "1" } });
    }
    if (state.rateLimitNext > 0) {
      state.rateLimitNext -= 1;
      return fail(response, 429, "Too many requests.", { headers: { "Retry-After": "1" } });
    }
    let payload;
    if (request.method === "POST" && text) {
      try {
        payload = JSON.parse(text);
      } catch {
        return fail(response, 400, "The body is not JSON.");
      }
    }
    if (request.method === "POST" && request.url === "/v1/players") {
      const name = payload?.name;
      if (typeof name !== "string" || !name) return fail(response, 422, MALFORMED, { errors: { name: ["Missing data for required field."] } });
      const taken = [...players.values()].some((other) => other.toLowerCase() === name.toLowerCase()); // one name in every case
      if (taken) return fail(response, 409, `The name '${name}' is taken.`);
      const token = `token-${players.size + 1}`;
      players.set(token, name);
      return send(response, 201, { name, token });
    }
    try {
      if (await games(request, response, payload)) return;
    } catch (error) {
      return fail(response, 500, error.message); // a game the fake built out of step with the service's (game-schema.js)
    }
    if (request.method === "POST" && (request.url === "/v1/runs" || request.url === "/v1/runs/batch")) {
      const player = playerOf(request);
      if (!player) return fail(response, 401, "A valid bearer token is required.");
      if (request.url === "/v1/runs/batch") return submitBatch(response, player, payload);
      const errors = submissionErrors(payload);
      if (errors) return fail(response, 422, MALFORMED, { errors });
      const { run, created } = accept(player, payload);
      return send(response, created ? 202 : 200, publicRun(run), { Location: `/v1/runs/${run.id}` });
    }
    const found = /^\/v1\/runs\/([^/]+)$/.exec(request.url);
    if (request.method === "GET" && found) {
      const run = runs.get(decodeURIComponent(found[1]));
      if (!run) return fail(response, 404, "No such run.");
      run.polls += 1;
      if (run.status === "pending" && run.polls > state.pendingPolls) {
        const verdict = await judge(run);
        Object.assign(run, {
          status: verdict.status,
          verified_at: new Date().toISOString(),
          outcome: verdict.outcome ?? null,
          score: verdict.score ?? null,
          health: verdict.health ?? null,
          error: verdict.error ?? null,
          ruleset: verdict.ruleset,
          engine: verdict.engine,
        });
      }
      return send(response, 200, publicRun(run));
    }
    return fail(response, 404, "Not found.");
  });

  // A well-formed submission becomes a new run, or is the run this player already submitted for that game.
  function accept(player, payload) {
    const variant = payload.variant ?? "classic";
    const key = [player, payload.seed, variant, payload.moves.join(",")].join("|");
    if (byPlayerGame.has(key)) return { run: runs.get(byPlayerGame.get(key)), created: false };
    const run = createRun(player, { seed: payload.seed, variant, moves: payload.moves });
    byPlayerGame.set(key, run.id);
    return { run, created: true };
  }

  // A run queued for its verdict: a submission's, or a dealt game's once it ends (`origin` "dealt", `forfeit`).
  function createRun(player, { seed, variant, moves, ...dealt }) {
    const id = `r${runs.size + 1}`;
    const run = {
      id,
      player,
      seed,
      variant,
      moves,
      origin: "open",
      game_id: null,
      challenge: null,
      date: null,
      forfeit: false,
      ...dealt,
      status: "pending",
      submitted_at: new Date().toISOString(),
      verified_at: null,
      outcome: null,
      score: null,
      health: null,
      error: null,
      ruleset: null,
      engine: null,
      polls: 0,
    };
    runs.set(id, run);
    return run;
  }

  // POST /v1/runs/batch: {runs: [1 to MAX_BATCH submissions]}, each accepted (202), already there (200) or malformed (422).
  function submitBatch(response, player, payload) {
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
      return fail(response, 422, MALFORMED, { errors: { _schema: ["Invalid input type."] } });
    }
    const { runs: items } = payload;
    const errors = { ...batchErrors(items) };
    for (const field of Object.keys(payload)) if (field !== "runs") errors[field] = ["Unknown field."];
    if (Object.keys(errors).length) return fail(response, 422, MALFORMED, { errors });
    const results = items.map((item, index) => {
      const itemErrors = submissionErrors(item);
      if (itemErrors) return { index, status: 422, run: null, errors: itemErrors };
      const { run, created } = accept(player, item);
      return { index, status: created ? 202 : 200, run: publicRun(run), errors: null };
    });
    const count = (status) => results.filter((result) => result.status === status).length;
    return send(response, 200, { accepted: count(202), existing: count(200), invalid: count(422), results });
  }

  // The verdict of a run; a forfeited dealt game's (R18) is never a submission's, so not replay's.
  async function judge(run) {
    if (!run.forfeit) return replay(run.seed, run.moves, run.variant);
    const game = await Game.start(run.seed, run.variant);
    for (const move of run.moves) game.play(move); // the fake's own game: every move legal
    return game.verdict({ forfeit: true });
  }

  // A sealed daily's seed stays hidden until its UTC day is over.
  function publicRun(run) {
    const { polls, ...shown } = run;
    if (run.challenge !== null && run.date >= state.today) shown.seed = null;
    return shown;
  }

  const games = dealtGames({ fail, send, playerOf, createRun, runOf: (id) => runs.get(id), state });

  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    state,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// `node tools/fake-server.js [port]`: serve until stopped, the URL on the first line of stdout.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { baseUrl } = await startFakeServer({ port: Number(process.argv[2] ?? 0) });
  console.log(baseUrl);
}
