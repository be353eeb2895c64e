// deal-v1 against the shared vectors the Python tests use (tests/data/deal-vectors.json).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

import { CANONICAL_ORDER, commitmentOf, deal, isValidSeed } from "../src/index.js";

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

test("commitmentOf is the hex SHA-256 of the seed (FIPS 180-2 vector), as a dealt game commits to it", async () => {
  assert.equal(await commitmentOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.match(await commitmentOf("f".repeat(64)), /^[0-9a-f]{64}$/);
});
