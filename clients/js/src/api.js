/**
 * Helpers for the referee's HTTP API: register a player, submit a run or a
 * batch of runs, wait for a verdict. They use the global `fetch` (browsers, Node 18+) unless
 * one is passed in, wait out a 429 or 503 as `Retry-After` asks (RETRY: bounded,
 * `{retry}` to change it), and turn every failure into one error class, ApiError.
 */

/** The `code` of an ApiError for each HTTP status the API answers with. */
export const STATUS_CODES = Object.freeze({
  400: "bad_request", // the body is not JSON
  401: "unauthorized", // no token, or a wrong one
  403: "forbidden", // another player's token; a studio's account with no player yet (`body.reason` "not_linked")
  404: "not_found",
  409: "conflict", // a taken name, a dealt game moved on or over, a second sealed daily game
  413: "too_large", // the body is larger than the service accepts
  422: "invalid", // a malformed submission: see `errors`
  429: "rate_limited", // see `retryAfter`
  503: "unavailable", // the service's store is down: see `retryAfter`
});

/**
 * A request the API refused, or that never got an answer.
 *
 * - `status`: the HTTP status, or null when there was no response
 *   (`code` "network_error"), waitForVerdict gave up (`code` "timeout") or
 *   submitBatch refused a batch before sending it (`code` "invalid");
 * - `code`: from STATUS_CODES, "http_error" for any other status;
 * - `errors`: the field errors of a 422 (`{field: [messages]}`), else null;
 * - `retryAfter`: seconds from the `Retry-After` header, else null;
 * - `body`: the parsed response body, if any.
 */
export class ApiError extends Error {
  constructor(message, { status = null, code, errors = null, retryAfter = null, body = null, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.retryAfter = retryAfter;
    this.body = body;
  }
}

/**
 * A 409: the player name is taken; a dealt game has another number of moves
 * played than the request expected, or is over; or the player already
 * started today's sealed daily game (`gameId`: that game's id, else null).
 */
export class ConflictError extends ApiError {
  constructor(message, { gameId = null, ...options } = {}) {
    super(message, { ...options, status: 409, code: STATUS_CODES[409] });
    this.name = "ConflictError";
    this.gameId = gameId;
  }
}

/** Seconds to wait from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(header, now = Date.now()) {
  if (header === null || header === undefined || header === "") return null;
  const text = String(header).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function endpoint(baseUrl, path) {
  return `${String(baseUrl).replace(/\/+$/, "")}${path}`;
}

async function readBody(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(status, body) {
  if (body && typeof body === "object") {
    for (const key of ["message", "error", "detail"]) {
      if (typeof body[key] === "string") return body[key];
    }
  }
  return typeof body === "string" && body ? body.slice(0, 200) : `HTTP ${status}`;
}

/** The id of the game a 409 names (today's sealed daily game, already started), or null. */
function conflictingGame(body) {
  return body && typeof body === "object" && typeof body.game_id === "string" ? body.game_id : null;
}

/**
 * How `request` retries an answer of 429 (rate limited) or 503 (the service's
 * store is away): it waits out the answer's `Retry-After` (1 s without one)
 * and sends the request again, at most `retries` times and for at most
 * `maxWaitMs` of waiting in all; an answer asking for a wait past that is
 * thrown at once, as is the last refusal. The service counts 10 requests a
 * second and 300 a minute per token by default, so a client that plays
 * faster than that waits a second now and then. A retry is safe with this
 * API: a 429 was refused before anything happened, a dealt game's move
 * carries the moves the client saw (a repeat is a 409 that `play`
 * recognises), and a run sent twice is the same run. `{retries: 0}` (or
 * `retry: false`) throws the first refusal, with its `retryAfter`.
 */
export const RETRY = Object.freeze({ retries: 3, maxWaitMs: 10000 });

/** The statuses `request` retries after `Retry-After`. */
const RETRIED = new Set([429, 503]);

/** Resolve after `ms`, or reject with the signal's reason once it aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * One request to the API: JSON in, JSON out (`text`: a 2xx answer's body
 * as the text it is, for the log's signed notes; `cache`: fetch's cache mode).
 * Resolves to `{status, headers,
 * body}` for a 2xx answer; throws ApiError (ConflictError for a 409) for any
 * other, or for no answer at all. A 429 or 503 is retried as `retry` says
 * (RETRY by default; `false` for none).
 */
export async function request(url, { retry = RETRY, ...options } = {}) {
  const { retries, maxWaitMs } = retry === false ? { retries: 0, maxWaitMs: 0 } : { ...RETRY, ...retry };
  let waited = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await requestOnce(url, options);
    } catch (error) {
      const wait = error instanceof ApiError && RETRIED.has(error.status) ? (error.retryAfter ?? 1) * 1000 : null;
      if (wait === null || attempt >= retries || waited + wait > maxWaitMs) throw error;
      waited += wait;
      await sleep(wait, options.signal);
    }
  }
}

async function requestOnce(url, { fetch = globalThis.fetch, method = "GET", token, headers = {}, body, signal, cache, text = false } = {}) {
  if (typeof fetch !== "function") throw new TypeError("no fetch: pass {fetch} or use a runtime with a global fetch");
  const sent = { Accept: text ? "text/plain" : "application/json", ...headers };
  if (token !== undefined && token !== null) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache,
    });
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new ApiError(`${method} ${url} failed: ${error?.message ?? error}`, { code: "network_error", cause: error });
  }
  const parsed = text && response.ok ? await response.text() : await readBody(response);
  if (response.ok) return { status: response.status, headers: response.headers, body: parsed };
  const status = response.status;
  const errors = status === 422 && parsed && typeof parsed === "object" ? parsed.errors ?? null : null;
  const message = `${method} ${url}: ${status} ${describe(status, parsed)}`;
  const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
  if (status === 409) throw new ConflictError(message, { gameId: conflictingGame(parsed), retryAfter, body: parsed });
  throw new ApiError(message, { status, code: STATUS_CODES[status] ?? "http_error", errors, retryAfter, body: parsed });
}

/**
 * Register a player name. Resolves to `{name, token}`; keep the token, it is
 * shown once. A taken name throws ApiError with status 409, code "conflict"
 * (so may a retry after a 503 whose registration did get through).
 *
 * With `token`, a studio's token (a JWT from an issuer the service trusts),
 * the name is the player of that studio account instead: resolves to
 * `{name, token: null}`, the studio's tokens being how they sign in; an
 * account that has a player already resolves to that player's name.
 */
export async function registerPlayer(baseUrl, name, { token, fetch, retry, signal } = {}) {
  const { body } = await request(endpoint(baseUrl, "/v1/players"), {
    fetch,
    retry,
    method: "POST",
    token,
    body: { name },
    signal,
  });
  return body;
}

const playerPath = (name) => `/v1/players/${encodeURIComponent(name)}`;

/**
 * Everything the service holds about a player (`GET /v1/players/<name>/export`),
 * one JSON document: `{player: {name, …}, runs, …}`. `token` is the player's
 * own (or a studio's token signing them in, or a server key). Throws ApiError:
 * 401 a wrong token, 403 another player's, 404 no such player.
 */
export async function exportPlayer(baseUrl, token, name, { fetch, retry, signal } = {}) {
  const { body } = await request(endpoint(baseUrl, `${playerPath(name)}/export`), { fetch, retry, token, signal });
  return body;
}

/**
 * Erase a player (`DELETE /v1/players/<name>`): the account, its token and its
 * runs' places go. Resolves to the answer, `{name, erased: true, …}`. `token`
 * as for exportPlayer. Throws ApiError: 401, 403, 404 as exportPlayer does (so
 * may a retry after a 503 whose erasure did get through: 404).
 */
export async function erasePlayer(baseUrl, token, name, { fetch, retry, signal } = {}) {
  const { body } = await request(endpoint(baseUrl, playerPath(name)), {
    fetch,
    retry,
    method: "DELETE",
    token,
    signal,
  });
  return body;
}

/**
 * Submit a run `{seed, moves, variant?}` for verification.
 *
 * Resolves to `{run, created, location}`: `run` is the run object (status
 * "pending" until a worker has judged it), `created` is false when the same
 * run had already been submitted by this player (HTTP 200 instead of 202),
 * `location` the run's URL as the server gave it. Throws ApiError: 401 a
 * missing or wrong token, 422 with field `errors`, 429/503 with `retryAfter`.
 * `idempotencyKey` is sent as the `Idempotency-Key` header.
 */
export async function submitRun(baseUrl, token, run, { fetch, retry, idempotencyKey, signal } = {}) {
  const headers = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
  const response = await request(endpoint(baseUrl, "/v1/runs"), {
    fetch,
    retry,
    method: "POST",
    token,
    headers,
    body: run,
    signal,
  });
  return {
    run: response.body,
    created: response.status === 202,
    location: response.headers.get("Location"),
  };
}

/** The most submissions one batch may hold (`schemas/batch.py`). */
export const MAX_BATCH = 1000;

/**
 * The field errors the service answers (422) for the `runs` of a batch that
 * is not a list of 1 to MAX_BATCH items, `{runs: [message]}`, or null. The
 * items themselves are checked by the service one by one (submissionErrors).
 */
export function batchErrors(runs) {
  if (runs === undefined) return { runs: ["Missing data for required field."] };
  if (runs === null) return { runs: ["Field may not be null."] };
  if (!Array.isArray(runs)) return { runs: ["Not a valid list."] };
  if (runs.length < 1 || runs.length > MAX_BATCH) return { runs: [`Length must be between 1 and ${MAX_BATCH}.`] };
  return null;
}

/**
 * Submit 1 to MAX_BATCH runs `{seed, moves, variant?}` in one request
 * (`POST /v1/runs/batch`). Each item is accepted or refused on its own.
 *
 * Resolves to the server's answer `{accepted, existing, invalid, results}`,
 * `results` in the order of `runs`: `{index, status, run, errors}` with
 * status 202 (a new run), 200 (this player had already submitted that game:
 * the same run) or 422 (a malformed item: `run` null, its field `errors`).
 * A refused item does not throw. The request as a whole throws ApiError as
 * submitRun does: 401, 413 `too_large`, 422 `invalid` (`errors.runs`),
 * 429/503 with `retryAfter`, `network_error`. A `runs` that is not an array
 * of 1 to MAX_BATCH items is refused before anything is sent: ApiError code
 * "invalid", status null, with the `errors` the service would answer.
 */
export async function submitBatch(baseUrl, token, runs, { fetch, retry, signal } = {}) {
  const errors = batchErrors(runs);
  if (errors) {
    throw new ApiError(`not sent: runs must be an array of 1 to ${MAX_BATCH} submissions (${errors.runs[0]})`, {
      code: "invalid",
      errors,
    });
  }
  const { body } = await request(endpoint(baseUrl, "/v1/runs/batch"), {
    fetch,
    retry,
    method: "POST",
    token,
    body: { runs },
    signal,
  });
  return body;
}

/** Fetch a run object by id (`GET /v1/runs/<id>`). */
export async function getRun(baseUrl, runId, { fetch, retry, token, signal } = {}) {
  const { body } = await request(endpoint(baseUrl, `/v1/runs/${encodeURIComponent(runId)}`), {
    fetch,
    retry,
    token,
    signal,
  });
  return body;
}

/**
 * Poll a run until it leaves "pending" and resolve to the run object
 * (status "verified", "rejected", "error" or "void"; verified runs carry
 * outcome, score and health, rejected ones `error`).
 *
 * Polls every `intervalMs`; on 429 or 503 waits as long as `Retry-After`
 * asks (at least `intervalMs`) and tries again. Any other failure throws its
 * ApiError at once; after `timeoutMs` it throws ApiError code "timeout" with
 * the last run seen as `body`.
 */
export async function waitForVerdict(baseUrl, runId, { intervalMs = 500, timeoutMs = 30000, fetch, token, signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  for (;;) {
    let wait = intervalMs;
    try {
      last = await getRun(baseUrl, runId, { fetch, token, signal, retry: false }); // its own waits, within timeoutMs
      if (last?.status !== "pending") return last;
    } catch (error) {
      if (!(error instanceof ApiError && RETRIED.has(error.status))) throw error;
      wait = Math.max(intervalMs, (error.retryAfter ?? 0) * 1000);
    }
    if (Date.now() + wait > deadline) {
      throw new ApiError(`run ${runId} has no verdict after ${timeoutMs} ms`, { code: "timeout", body: last });
    }
    await sleep(wait, signal);
  }
}
