// events() against a fetch that answers as the API's event stream does: messages split across chunks, a
// dropped connection resumed with Last-Event-ID, and a refusal thrown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, events } from "../src/index.js";

function streamOf(chunks) {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

test("events yields each event once, resuming after the last one when the connection drops", async () => {
  const asked = [];
  const answers = [
    ["retry: 1\n: open\n\nid: 1-0\ndata: {\"type\":\"run.verified\",", "\"run_id\":\"r1\"}\n\n: heartbeat\n\n"],
    ["retry: 1\n\nid: 2-0\ndata: {\"type\":\"place.lost\",\"run_id\":\"r2\",\"by\":\"ann\",\"place\":4}\n\n"],
  ];
  const fetch = async (url, { headers }) => {
    asked.push([url, headers["Last-Event-ID"], headers.Authorization]);
    return new Response(streamOf(answers.shift() ?? []), { status: 200, headers: { "Content-Type": "text/event-stream" } });
  };
  const controller = new AbortController();
  const got = [];
  for await (const event of events("http://referee.test/", "tok", "bob", { fetch, signal: controller.signal })) {
    got.push(event);
    if (got.length === 2) controller.abort();
  }
  assert.deepEqual(got, [
    { id: "1-0", data: { type: "run.verified", run_id: "r1" } },
    { id: "2-0", data: { type: "place.lost", run_id: "r2", by: "ann", place: 4 } },
  ]);
  assert.deepEqual(asked, [
    ["http://referee.test/v1/players/bob/events", undefined, "Bearer tok"],
    ["http://referee.test/v1/players/bob/events", "1-0", "Bearer tok"],
  ]);
});

test("events throws the API's refusal", async () => {
  const fetch = async () => new Response(JSON.stringify({ code: "forbidden", status: 403, message: "Only the player" }),
    { status: 403, headers: { "Content-Type": "application/json" } });
  await assert.rejects(events("http://referee.test", "tok", "bob", { fetch }).next(), (error) =>
    error instanceof ApiError && error.status === 403);
});
