// submitRun / waitForVerdict / registerPlayer against a fake server that follows the API contract; exportPlayer and
// erasePlayer against a fetch that answers as the API does.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import {
  ApiError,
  Game,
  erasePlayer,
  exportPlayer,
  parseRetryAfter,
  registerPlayer,
  submitRun,
  waitForVerdict,
} from "../src/index.js";
import { startFakeServer } from "../tools/fake-server.js";

let server;
let token;

before(async () => {
  server = await startFakeServer();
  ({ token } = await registerPlayer(server.baseUrl, "ada"));
});
after(() => server.close());

async function playedOut(seed) {
  const game = await Game.start(seed);
  while (!game.over) game.play(game.legalMoves()[0]);
  return game;
}

test("registerPlayer returns the name and a token; a taken name, in any case, is 409 conflict", async () => {
  const player = await registerPlayer(server.baseUrl, "grace");
  assert.deepEqual(player, { name: "grace", token: player.token });
  await assert.rejects(registerPlayer(server.baseUrl, "GRACE"), { status: 409, code: "conflict" });
  await assert.rejects(registerPlayer(server.baseUrl, "grace"), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 409);
    assert.equal(error.code, "conflict");
    assert.match(error.message, /taken/);
    return true;
  });
});

test("submitRun: 202 for a new run with Location, 200 for the same run again", async () => {
  const game = await playedOut("api-1");
  const first = await submitRun(server.baseUrl, token, game.toSubmission(), { idempotencyKey: "k-1" });
  assert.equal(first.created, true);
  assert.equal(first.run.status, "pending");
  assert.equal(first.location, `/v1/runs/${first.run.id}`);
  const sent = server.state.requests.at(-1);
  assert.equal(sent.headers.authorization, `Bearer ${token}`);
  assert.equal(sent.headers["idempotency-key"], "k-1");
  assert.equal(sent.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(sent.body), game.toSubmission());
  const again = await submitRun(server.baseUrl, token, game.toSubmission());
  assert.equal(again.created, false);
  assert.equal(again.run.id, first.run.id);
});

test("waitForVerdict polls past pending and returns the judged run, matching the local verdict", async () => {
  const game = await playedOut("api-2");
  const { run } = await submitRun(server.baseUrl, token, game.toSubmission());
  const judged = await waitForVerdict(server.baseUrl, run.id, { intervalMs: 10, timeoutMs: 5000 });
  const local = game.verdict();
  assert.equal(judged.status, local.status);
  assert.equal(judged.outcome, local.outcome);
  assert.equal(judged.score, local.score);
  assert.equal(judged.health, local.health);
});

test("a rejected run comes back with its error", async () => {
  const { run } = await submitRun(server.baseUrl, token, { seed: "api-3", moves: ["flee", "flee"] });
  const judged = await waitForVerdict(server.baseUrl, run.id, { intervalMs: 10 });
  assert.equal(judged.status, "rejected");
  assert.equal(judged.error.code, "flee_not_allowed");
  assert.equal(judged.error.move_index, 1);
});

test("401 without a token or with a wrong one", async () => {
  for (const wrong of [undefined, "nope"]) {
    await assert.rejects(submitRun(server.baseUrl, wrong, { seed: "abc", moves: [] }), {
      name: "ApiError",
      status: 401,
      code: "unauthorized",
    });
  }
});

test("422 carries the field errors", async () => {
  await assert.rejects(submitRun(server.baseUrl, token, { seed: "bad seed!", moves: ["S99"] }), (error) => {
    assert.equal(error.status, 422);
    assert.equal(error.code, "invalid");
    assert.deepEqual(Object.keys(error.errors).sort(), ["moves", "seed"]);
    assert.ok(Array.isArray(error.errors.moves["0"]));
    return true;
  });
});

test("429 and 503 expose Retry-After on the error when retry is off", async () => {
  server.state.rateLimitNext = 1;
  await assert.rejects(submitRun(server.baseUrl, token, { seed: "abc", moves: [] }, { retry: false }), {
    status: 429,
    code: "rate_limited",
    retryAfter: 1,
  });
  server.state.unavailableNext = 1;
  await assert.rejects(submitRun(server.baseUrl, token, { seed: "abc", moves: [] }, { retry: { retries: 0 } }), {
    status: 503,
    code: "unavailable",
    retryAfter: 1,
  });
});

test("waitForVerdict gives up after timeoutMs with code timeout and the last run", async () => {
  const { run } = await submitRun(server.baseUrl, token, { seed: "api-5", moves: ["flee"] });
  server.state.pendingPolls = 1000;
  try {
    await assert.rejects(waitForVerdict(server.baseUrl, run.id, { intervalMs: 20, timeoutMs: 100 }), (error) => {
      assert.equal(error.code, "timeout");
      assert.equal(error.status, null);
      assert.equal(error.body.status, "pending");
      return true;
    });
  } finally {
    server.state.pendingPolls = 1;
  }
});

test("an unknown run is 404 not_found, at once", async () => {
  await assert.rejects(waitForVerdict(server.baseUrl, "r999", { intervalMs: 10 }), { status: 404, code: "not_found" });
});

test("an injected fetch is used, and a network failure is ApiError network_error", async () => {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify({ id: "x1", status: "pending" }), {
      status: 202,
      headers: { Location: "/v1/runs/x1" },
    });
  };
  const result = await submitRun("https://referee.example/", "t", { seed: "abc", moves: [] }, { fetch });
  assert.equal(calls[0].url, "https://referee.example/v1/runs");
  assert.equal(calls[0].init.method, "POST");
  assert.deepEqual(result, { run: { id: "x1", status: "pending" }, created: true, location: "/v1/runs/x1" });
  const broken = async () => {
    throw new TypeError("fetch failed");
  };
  await assert.rejects(submitRun("https://referee.example", "t", { seed: "abc", moves: [] }, { fetch: broken }), {
    name: "ApiError",
    code: "network_error",
    status: null,
  });
});

test("400 for a body that is not JSON maps to bad_request", async () => {
  const fetch = async () => new Response(JSON.stringify({ code: 400, status: "Bad Request", message: "The body is not JSON." }), { status: 400 });
  await assert.rejects(submitRun("http://x", "t", { seed: "abc", moves: [] }, { fetch }), {
    status: 400,
    code: "bad_request",
    message: /not JSON/,
  });
});

test("Retry-After is read as seconds or as an HTTP date", () => {
  assert.equal(parseRetryAfter("7"), 7);
  assert.equal(parseRetryAfter(null), null);
  const now = Date.parse("2026-11-29T12:00:00Z");
  assert.equal(parseRetryAfter("Sun, 29 Nov 2026 12:00:30 GMT", now), 30);
  assert.equal(parseRetryAfter("soon"), null);
});

/** A fetch that answers each request with the next of `answers` (`[status, body]`), keeping what was sent. */
function answering(...answers) {
  const fetch = async (url, init) => {
    fetch.sent.push({ url, method: init.method, authorization: init.headers.Authorization, body: init.body });
    const [status, body] = answers[fetch.sent.length - 1];
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  };
  fetch.sent = [];
  return fetch;
}

test("registerPlayer with a studio's token sends it, and resolves to the account's player with no token", async () => {
  const fetch = answering([201, { name: "hana", token: null }]);
  const player = await registerPlayer("http://x", "hana", { token: "a.studio.jwt", fetch });
  assert.deepEqual(player, { name: "hana", token: null });
  assert.deepEqual(fetch.sent, [{ url: "http://x/v1/players", method: "POST", authorization: "Bearer a.studio.jwt",
    body: JSON.stringify({ name: "hana" }) }]);
});

test("exportPlayer reads the player's document and erasePlayer deletes them, each with the token", async () => {
  const fetch = answering([200, { player: { name: "Ada" }, runs: [] }], [200, { name: "Ada", erased: true }]);
  assert.deepEqual(await exportPlayer("http://x/", "t", "Ada", { fetch }), { player: { name: "Ada" }, runs: [] });
  assert.deepEqual(await erasePlayer("http://x/", "t", "Ada", { fetch }), { name: "Ada", erased: true });
  assert.deepEqual(fetch.sent.map(({ url, method, authorization }) => [url, method, authorization]), [
    ["http://x/v1/players/Ada/export", "GET", "Bearer t"],
    ["http://x/v1/players/Ada", "DELETE", "Bearer t"],
  ]);
});

test("exportPlayer and erasePlayer: a wrong token unauthorized, another's forbidden, no player not_found", async () => {
  for (const [status, code] of [[401, "unauthorized"], [403, "forbidden"], [404, "not_found"]]) {
    const fetch = answering([status, { message: "no" }], [status, { message: "no" }]);
    await assert.rejects(exportPlayer("http://x", "t", "ada", { fetch }), { name: "ApiError", status, code });
    await assert.rejects(erasePlayer("http://x", "t", "ada", { fetch }), { name: "ApiError", status, code });
  }
});
