// submitBatch against the fake server's POST /v1/runs/batch, which follows the service's contract.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ApiError, MAX_BATCH, registerPlayer, submitBatch, submitRun } from "../src/index.js";
import { startFakeServer } from "../tools/fake-server.js";

let server;
let token;

before(async () => {
  server = await startFakeServer();
  ({ token } = await registerPlayer(server.baseUrl, "batcher"));
});
after(() => server.close());

const LENGTH = `Length must be between 1 and ${MAX_BATCH}.`;
const many = (count, prefix) => Array.from({ length: count }, (_, i) => ({ seed: `${prefix}-${i}`, moves: ["flee"] }));

/** POST a raw body to the fake server, past submitBatch's own check. */
async function postRaw(body, bearer = token) {
  const response = await fetch(`${server.baseUrl}/v1/runs/batch`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test("a mixed batch: each item gets its own status, the counts add up", async () => {
  const earlier = await submitRun(server.baseUrl, token, { seed: "mix-0", moves: ["flee"] });
  const runs = [
    { seed: "mix-1", moves: ["flee"], variant: "hard" }, // new
    { seed: "mix-0", moves: ["flee"] }, // submitted before, on its own
    { seed: "bad seed!", moves: ["S99"], variant: "nightmare" }, // malformed
    { seed: "mix-1", moves: ["flee"], variant: "hard" }, // the same game as item 0
    { seed: "mix-2", moves: ["flee"] }, // new
  ];
  const answer = await submitBatch(server.baseUrl, token, runs);

  assert.deepEqual(
    { accepted: answer.accepted, existing: answer.existing, invalid: answer.invalid },
    { accepted: 2, existing: 2, invalid: 1 },
  );
  assert.deepEqual(answer.results.map((result) => [result.index, result.status]), [
    [0, 202],
    [1, 200],
    [2, 422],
    [3, 200],
    [4, 202],
  ]);
  const [fresh, again, malformed, repeated, other] = answer.results;
  assert.equal(fresh.run.status, "pending");
  assert.equal(fresh.run.variant, "hard");
  assert.equal(fresh.errors, null);
  assert.equal(again.run.id, earlier.run.id, "the run submitted before, not a second one");
  assert.equal(repeated.run.id, fresh.run.id, "a game repeated within the batch is one run");
  assert.notEqual(other.run.id, fresh.run.id);
  assert.equal(other.run.variant, "classic");
  assert.equal(malformed.run, null);
  assert.deepEqual(Object.keys(malformed.errors).sort(), ["moves", "seed", "variant"]);
  assert.ok(Array.isArray(malformed.errors.moves["0"]));

  const sent = server.state.requests.at(-1);
  assert.equal(sent.method, "POST");
  assert.equal(sent.url, "/v1/runs/batch");
  assert.equal(sent.headers.authorization, `Bearer ${token}`);
  assert.equal(sent.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(sent.body), { runs });
});

test("results keep the order of the input", async () => {
  const runs = many(60, "order");
  for (let i = 5; i < runs.length; i += 7) runs[i] = { seed: `order-${i}`, moves: ["nope"] }; // malformed here and there
  const answer = await submitBatch(server.baseUrl, token, runs);
  assert.equal(answer.results.length, runs.length);
  answer.results.forEach((result, i) => {
    assert.equal(result.index, i);
    if (i >= 5 && (i - 5) % 7 === 0) {
      assert.equal(result.status, 422);
      assert.deepEqual(Object.keys(result.errors), ["moves"]);
    } else {
      assert.equal(result.status, 202);
      assert.equal(result.run.seed, `order-${i}`);
    }
  });
  assert.equal(answer.invalid, 8);
  assert.equal(answer.accepted, 52);
});

test("exactly MAX_BATCH runs are one batch", async () => {
  const answer = await submitBatch(server.baseUrl, token, many(MAX_BATCH, "full"));
  assert.equal(answer.accepted, MAX_BATCH);
  assert.equal(answer.results.at(-1).index, MAX_BATCH - 1);
});

test("401 without a token or with a wrong one", async () => {
  for (const wrong of [undefined, "nope"]) {
    await assert.rejects(submitBatch(server.baseUrl, wrong, many(1, "unauth")), {
      name: "ApiError",
      status: 401,
      code: "unauthorized",
    });
  }
});

test("an empty, over-long or non-array batch is refused before it is sent", async () => {
  const cases = [
    [[], LENGTH],
    [many(MAX_BATCH + 1, "long"), LENGTH],
    [{ seed: "abc", moves: [] }, "Not a valid list."],
    ["abc", "Not a valid list."],
    [null, "Field may not be null."],
    [undefined, "Missing data for required field."],
  ];
  const sentBefore = server.state.requests.length;
  for (const [runs, message] of cases) {
    await assert.rejects(submitBatch(server.baseUrl, token, runs), (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "invalid");
      assert.equal(error.status, null, "no request was made");
      assert.deepEqual(error.errors, { runs: [message] });
      assert.match(error.message, /not sent/);
      return true;
    });
  }
  assert.equal(server.state.requests.length, sentBefore, "nothing reached the server");
});

test("the server itself answers 422 for an empty, over-long, missing or non-list runs", async () => {
  const cases = [
    [{ runs: [] }, { runs: [LENGTH] }],
    [{ runs: many(MAX_BATCH + 1, "raw") }, { runs: [LENGTH] }],
    [{}, { runs: ["Missing data for required field."] }],
    [{ runs: "abc" }, { runs: ["Not a valid list."] }],
    [{ runs: many(1, "extra"), extra: 1 }, { extra: ["Unknown field."] }],
    [[], { _schema: ["Invalid input type."] }],
  ];
  for (const [body, errors] of cases) {
    const answer = await postRaw(body);
    assert.equal(answer.status, 422);
    assert.equal(answer.body.code, 422);
    assert.equal(answer.body.status, "Unprocessable Entity");
    assert.deepEqual(answer.body.errors, errors);
  }
  assert.equal((await postRaw({ runs: [] }, "nope")).status, 401, "the token is checked first");
});

test("the server's 422 for the whole batch is an ApiError with the field errors", async () => {
  // A fetch that empties the batch on its way to the server: the refusal comes from the server.
  const emptying = (url, init) => fetch(url, { ...init, body: JSON.stringify({ runs: [] }) });
  await assert.rejects(submitBatch(server.baseUrl, token, many(1, "emptied"), { fetch: emptying }), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 422);
    assert.equal(error.code, "invalid");
    assert.deepEqual(error.errors, { runs: [LENGTH] });
    assert.equal(error.body.code, 422);
    return true;
  });
});

test("413 for a body over the limit, 429 and 503 with Retry-After", async () => {
  server.state.maxBodyBytes = 1000;
  try {
    await assert.rejects(submitBatch(server.baseUrl, token, many(50, "big")), {
      name: "ApiError",
      status: 413,
      code: "too_large",
    });
  } finally {
    server.state.maxBodyBytes = 4 * 1024 * 1024;
  }
  server.state.rateLimitNext = 1;
  await assert.rejects(submitBatch(server.baseUrl, token, many(1, "limited"), { retry: false }), {
    status: 429,
    code: "rate_limited",
    retryAfter: 1,
  });
  server.state.unavailableNext = 1;
  await assert.rejects(submitBatch(server.baseUrl, token, many(1, "down"), { retry: false }), {
    status: 503,
    code: "unavailable",
    retryAfter: 1,
  });
});

test("an injected fetch is used, and a network failure is ApiError network_error", async () => {
  const calls = [];
  const reply = { accepted: 1, existing: 0, invalid: 0, results: [{ index: 0, status: 202, run: { id: "x1" }, errors: null }] };
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(reply), { status: 200 });
  };
  const runs = many(1, "injected");
  assert.deepEqual(await submitBatch("https://referee.example/", "t", runs, { fetch }), reply);
  assert.equal(calls[0].url, "https://referee.example/v1/runs/batch");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers.Authorization, "Bearer t");
  assert.deepEqual(JSON.parse(calls[0].init.body), { runs });
  const broken = async () => {
    throw new TypeError("fetch failed");
  };
  await assert.rejects(submitBatch("https://referee.example", "t", runs, { fetch: broken }), {
    name: "ApiError",
    code: "network_error",
    status: null,
  });
});
