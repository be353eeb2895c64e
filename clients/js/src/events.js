/**
 * A player's live events (`GET /v1/players/<name>/events`, docs/live.md) as an async iterator:
 *
 *     for await (const { id, data } of events(baseUrl, token, "ada")) {
 *       if (data.type === "run.verified") showVerdict(data.run_id);
 *     }
 *
 * Each event is `{id, data}`: its id in the player's stream and its JSON, whose `type` says what happened
 * (`run.verified`, `run.rejected`, `place.lost`, `reward.granted`…). A dropped connection is opened again
 * after the server's `retry` wait, resuming after the last event received (`Last-Event-ID`), so none is
 * missed while the server keeps it (the last 100, for 24 hours). Ends when `signal` aborts; throws
 * ApiError for an answer other than the stream (401 a wrong token, 403 another player's).
 */
import { ApiError, STATUS_CODES, endpoint, sleep } from "./api.js";

const DEFAULT_RETRY_MS = 2000;

/** The SSE messages in `text` that are whole, and the rest: `[messages, rest]`, each message its fields. */
export function parseMessages(text) {
  const blocks = text.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = blocks.pop();
  const messages = blocks.map((block) => {
    const fields = {};
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${value}` : value;
    }
    return fields;
  });
  return [messages, rest];
}

export async function* events(baseUrl, token, name, { fetch = globalThis.fetch, signal, lastEventId } = {}) {
  const url = endpoint(baseUrl, `/v1/players/${encodeURIComponent(name)}/events`);
  let last = lastEventId;
  let retryMs = DEFAULT_RETRY_MS;
  while (!signal?.aborted) {
    const headers = { Accept: "text/event-stream", Authorization: `Bearer ${token}` };
    if (last) headers["Last-Event-ID"] = last;
    let response;
    try {
      response = await fetch(url, { headers, signal });
    } catch (error) {
      if (error?.name === "AbortError") return;
      await sleep(retryMs, signal).catch(() => {});
      continue;
    }
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw new ApiError(`GET ${url}: ${response.status} ${body?.message ?? ""}`.trim(), {
        status: response.status,
        code: STATUS_CODES[response.status] ?? "http_error",
        body,
      });
    }
    const decoder = new TextDecoder();
    let text = "";
    try {
      for await (const chunk of response.body) {
        const [messages, rest] = parseMessages(text + decoder.decode(chunk, { stream: true }));
        text = rest;
        for (const message of messages) {
          if (/^\d+$/.test(message.retry ?? "")) retryMs = Number(message.retry);
          if (message.data === undefined) continue;
          if (message.id) last = message.id;
          yield { id: message.id, data: JSON.parse(message.data) };
        }
      }
    } catch (error) {
      if (error?.name === "AbortError") return;
    }
    await sleep(retryMs, signal).catch(() => {});
  }
}
