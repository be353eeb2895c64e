// deal-v1 against the shared vectors the Python tests use (tests/data/deal-vectors.json).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

import { CANONICAL_ORDER, deal, isValidSeed } from "../src/index.js";

const vectors = JSON.parse(await readFile(new URL("../../../tests/data/deal-vectors.json", import.meta.url), "utf8"));

test("the shared file holds the RULES.md vector and more", () => {
  assert.ok(Object.keys(vectors).length >= 10);
  assert.ok("abc" in vectors);
});

for (const [seed, dungeon] of Object.entries(vectors)) {
  test(`deal-v1 vector ${JSON.stringify(seed)}`, async () => {
    assert.deepEqual(await deal(seed), dungeon.split(" "));
  });
}

test("a deal is a permutation of the 44 cards of R1", async () => {
  const dungeon = await deal("permutation");
  assert.equal(dungeon.length, 44);
  assert.deepEqual([...dungeon].sort(), [...CANONICAL_ORDER].sort());
});

test("seeds are case-sensitive", async () => {
  assert.notDeepEqual(await deal("abc"), await deal("ABC"));
});

for (const seed of ["", "a b", "é", "x".repeat(65), "a/b", null, undefined, 42]) {
  test(`an invalid seed ${JSON.stringify(seed)} is refused with a clear error`, async () => {
    assert.equal(isValidSeed(seed), false);
    await assert.rejects(deal(seed), { name: "TypeError", message: /invalid seed.*1-64 characters/ });
  });
}

test("the longest valid seed deals", async () => {
  assert.equal((await deal("x".repeat(64))).length, 44);
});
