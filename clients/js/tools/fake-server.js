// A tiny stand-in for the referee's HTTP API (node:http), following the
// contract of issue 7: players, runs, batches of runs, 401/409/413/422/429/503 and Retry-After,
// errors in the service's shape {code, status, message, errors?}.
import { createServer } from "node:http";

import { batchErrors, replay, submissionErrors } from "../src/index.js";

const MALFORMED = "The request is malformed; see errors for each field.";

const STATUS_TEXT = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  409: "Conflict",
  413: "Request Entity Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  503: "Service Unavailable",
};

export async function startFakeServer() {
  const players = new Map(); // token -> name
  const runs = new Map(); // id -> run
  const byPlayerGame = new Map(); // player|seed|variant|moves -> id
  const state = {
    rateLimitNext: 0, // answer the next N requests with 429
    unavailableNext: 0, // answer the next N requests with 503
    pendingPolls: 1, // GETs that still see "pending" before the verdict shows
    maxBodyBytes: 4 * 1024 * 1024, // larger bodies get 413, as the service's max_body_bytes
    requests: [],
  };

  async function body(request) {
    let text = "";
    for await (const chunk of request) text += chunk;
    return text;
  }

  function send(response, status, payload, headers = {}) {
    response.writeHead(status, { "Content-Type": "application/json", ...headers });
    response.end(payload === undefined ? "" : JSON.stringify(payload));
  }

  // Every error has the service's one JSON shape: {code, status, message, errors?}.
  function fail(response, status, message, { errors, headers } = {}) {
    const body = { code: status, status: STATUS_TEXT[status], message };
    if (errors) body.errors = errors;
    send(response, status, body, headers);
  }

  const server = createServer(async (request, response) => {
    const text = await body(request);
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
    if (request.method === "POST") {
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
    if (request.method === "POST" && (request.url === "/v1/runs" || request.url === "/v1/runs/batch")) {
      const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
      const player = match && players.get(match[1]);
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
        const verdict = await replay(run.seed, run.moves, run.variant);
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
    const id = `r${runs.size + 1}`;
    const run = {
      id,
      player,
      seed: payload.seed,
      variant,
      moves: payload.moves,
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
    byPlayerGame.set(key, id);
    return { run, created: true };
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

  function publicRun(run) {
    const { polls, ...shown } = run;
    return shown;
  }

  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
