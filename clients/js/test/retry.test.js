// How the client waits out a 429 or a 503 (Retry-After, RETRY's bounds, an abort) against fetches of its own, the
// waits it asks for recorded rather than waited: this file sends nothing over HTTP, so every timer set while a test
// runs is the client's.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RETRY, registerPlayer, submitBatch, submitRun, waitForVerdict } from "../src/index.js";

/**
 * The waits the client asks for during test `t`, in milliseconds, each recorded and not waited: while `t` runs,
 * setTimeout calls back at once.
 */
function recordedWaits(t) {
  const waits = [];
  const { setTimeout } = globalThis;
  t.mock.method(globalThis, "setTimeout", (callback, ms, ...args) => {
    waits.push(ms);
    return setTimeout(callback, 0, ...args);
  });
  return waits;
}

/**
 * A fetch answering `refusals` (each `[status, retryAfter]`) in turn, then `answer` (`[status, body]`); it counts its
 * calls and keeps what each sent.
 */
function refusing(refusals, answer = [201, { name: "x", token: "t" }]) {
  const fetch = async (url, init) => {
    fetch.calls += 1;
    fetch.sent.push({ url, method: init.method, authorization: init.headers.Authorization, body: init.body });
    const [status, retryAfter] = refusals[fetch.calls - 1] ?? [answer[0], null];
    const headers = retryAfter === null ? {} : { "Retry-After": retryAfter };
    return new Response(JSON.stringify(retryAfter === null ? answer[1] : { message: "no" }), { status, headers });
  };
  fetch.calls = 0;
  fetch.sent = [];
  return fetch;
}

test("a 503 and a 429 are waited out as Retry-After asks, then the request is sent again", async (t) => {
  const waits = recordedWaits(t);
  const fetch = refusing([[503, "1"], [429, "2"]], [202, { id: "r1", status: "pending" }]);
  const { created, run } = await submitRun("http://x", "t", { seed: "abc", moves: ["flee"] }, { fetch });
  assert.deepEqual(waits, [1000, 2000], "waited the Retry-After seconds of each refusal, one after the other");
  assert.equal(created, true);
  assert.equal(run.status, "pending");
  assert.equal(fetch.calls, 3, "the 503, the 429, then the answer");
  assert.deepEqual(fetch.sent, Array(3).fill({ url: "http://x/v1/runs", method: "POST", authorization: "Bearer t",
    body: JSON.stringify({ seed: "abc", moves: ["flee"] }) }), "the same request each time");
});

test("a batch is sent again after a 429's Retry-After, as a run is", async (t) => {
  const waits = recordedWaits(t);
  const reply = { accepted: 1, existing: 0, invalid: 0, results: [{ index: 0, status: 202, run: { id: "r1" }, errors: null }] };
  const fetch = refusing([[429, "1"]], [200, reply]);
  assert.deepEqual(await submitBatch("http://x", "t", [{ seed: "abc", moves: ["flee"] }], { fetch }), reply);
  assert.deepEqual(waits, [1000]);
  assert.deepEqual(fetch.sent.map(({ url, method }) => [url, method]), Array(2).fill(["http://x/v1/runs/batch", "POST"]));
});

test("retries are bounded: RETRY.retries at most, then the last refusal is thrown", async () => {
  assert.deepEqual(RETRY, { retries: 3, maxWaitMs: 10000 });
  const fetch = refusing(Array(RETRY.retries + 1).fill([429, "0"]));
  await assert.rejects(registerPlayer("http://x", "x", { fetch }), { status: 429, code: "rate_limited", retryAfter: 0 });
  assert.equal(fetch.calls, RETRY.retries + 1);
  const enough = refusing(Array(RETRY.retries).fill([503, "0"]));
  assert.deepEqual(await registerPlayer("http://x", "x", { fetch: enough }), { name: "x", token: "t" });
  assert.equal(enough.calls, RETRY.retries + 1);
});

test("a Retry-After past maxWaitMs is thrown at once; the waits add up against it", async (t) => {
  const waits = recordedWaits(t);
  const long = refusing([[429, "60"]]);
  await assert.rejects(registerPlayer("http://x", "x", { fetch: long }), { status: 429, retryAfter: 60 });
  assert.deepEqual(waits, [], "no wait was started");
  assert.equal(long.calls, 1);
  const adding = refusing([[429, "1"], [429, "1"]]);
  await assert.rejects(registerPlayer("http://x", "x", { fetch: adding, retry: { maxWaitMs: 1500 } }), { status: 429 });
  assert.equal(adding.calls, 2, "one wait of a second fits in 1.5 s, a second does not");
  assert.deepEqual(waits, [1000]);
});

test("other statuses are never retried, and an abort ends a wait", async () => {
  for (const status of [400, 404, 409, 422, 500]) {
    const fetch = refusing([[status, "0"]]);
    await assert.rejects(registerPlayer("http://x", "x", { fetch }), { status });
    assert.equal(fetch.calls, 1, `${status} is not retried`);
  }
  const controller = new AbortController();
  const fetch = refusing([[429, "5"]]);
  const started = Date.now();
  setTimeout(() => controller.abort(new Error("stopped")), 50);
  await assert.rejects(registerPlayer("http://x", "x", { fetch, signal: controller.signal }), { message: "stopped" });
  assert.ok(Date.now() - started < 2000, "the five seconds were not waited");
});

test("waitForVerdict honours Retry-After on 429 and 503, at least intervalMs, then succeeds", async (t) => {
  const waits = recordedWaits(t);
  const fetch = refusing([[429, "1"], [503, "2"], [503, "0"]], [200, { id: "r1", status: "verified" }]);
  const judged = await waitForVerdict("http://x", "r1", { intervalMs: 10, timeoutMs: 10000, fetch });
  assert.deepEqual(waits, [1000, 2000, 10], "waited each Retry-After, and intervalMs for a Retry-After of 0");
  assert.equal(judged.status, "verified");
  assert.deepEqual(fetch.sent.map(({ url, method }) => [url, method]), Array(4).fill(["http://x/v1/runs/r1", "GET"]));
});
