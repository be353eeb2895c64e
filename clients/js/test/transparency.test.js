// The public log's checks (src/transparency.js) against an independent construction: trees of 1 to 70 leaves and
// their proofs built here by the recursive definitions of RFC 9162 §2.1 with node:crypto, notes signed here with
// node:crypto's Ed25519, the examples of the signed-note spec and of Go's note package, and a checkpoint Python's
// `cryptography` signed (tests/data/signed-note.json, written by tests/support/public_log.py).
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";

import {
  LogCheckError,
  checkLogged,
  isValidKeyName,
  keyIdOf,
  leafHash,
  nodeHash,
  openCheckpoint,
  openSignedNote,
  parseCheckpoint,
  parseSignedNote,
  parseVerifierKey,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
} from "../src/index.js";

const fixture = JSON.parse(await readFile(new URL("../../../tests/data/signed-note.json", import.meta.url), "utf8"));

// ---- an independent Merkle tree (RFC 9162 §2.1) -------------------------------------------------------------------

const sha = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest();
const hashLeaf = (leaf) => sha(Buffer.from([0]), Buffer.from(leaf));
const hashNode = (left, right) => sha(Buffer.from([1]), left, right);
/** The largest power of two smaller than n (n > 1). */
const split = (n) => 2 ** Math.ceil(Math.log2(n) - 1);

/** The subtrees' hashes of each list of leaves, by "lo,hi": the proofs of every tree share them, each computed once. */
const known = new WeakMap();

/** MTH(D[lo:hi]) of RFC 9162 §2.1.1. */
function mth(leaves, lo = 0, hi = leaves.length) {
  if (!known.has(leaves)) known.set(leaves, new Map());
  const hashes = known.get(leaves);
  const at = `${lo},${hi}`;
  if (!hashes.has(at)) {
    const n = hi - lo;
    const k = lo + split(n);
    hashes.set(at, n === 0 ? sha() : n === 1 ? hashLeaf(leaves[lo]) : hashNode(mth(leaves, lo, k), mth(leaves, k, hi)));
  }
  return hashes.get(at);
}

/** PATH(m, D[lo:hi]) of RFC 9162 §2.1.3.1, m counted from lo. */
function path(m, leaves, lo, hi) {
  if (hi - lo === 1) return [];
  const k = split(hi - lo);
  return m < k
    ? [...path(m, leaves, lo, lo + k), mth(leaves, lo + k, hi)]
    : [...path(m - k, leaves, lo + k, hi), mth(leaves, lo, lo + k)];
}

/** SUBPROOF(m, D[lo:hi], b) of RFC 9162 §2.1.4.1, m counted from lo; PROOF(m, D[n]) is SUBPROOF(m, D[0:n], true). */
function subproof(m, leaves, lo, hi, whole) {
  const n = hi - lo;
  if (m === n) return whole ? [] : [mth(leaves, lo, hi)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves, lo, lo + k, whole), mth(leaves, lo + k, hi)]
    : [...subproof(m - k, leaves, lo + k, hi, false), mth(leaves, lo, lo + k)];
}

const SIZES = 70;
const LEAVES = Array.from({ length: SIZES }, (_, i) => JSON.stringify({ index: i, run: `run-${i}`, score: i - 30 }));
const ROOTS = Array.from({ length: SIZES + 1 }, (_, n) => mth(LEAVES, 0, n));

/** The places of a tree of n leaves a forgery is tried at: the first, the middle, the last but one and the last. */
const places = (n) => [...new Set([0, Math.floor(n / 2), Math.max(0, n - 2), n - 1])];

/**
 * `check(item)` for every item, side by side: the Web Crypto digests of all the checks then queue together on
 * Node's thread pool instead of each waking a pool thread alone (40,000 digests one at a time take 1.2 s of CPU,
 * 16 at a time 0.7 s).
 */
const forEvery = (items, check) => Promise.all([...items].map(check));

/** 0, 1, ..., n - 1. */
const upTo = (n) => Array.from({ length: n }, (_, i) => i);

/** A copy of the hashes with one bit of hash `at` flipped. */
function flipped(hashes, at) {
  const copy = hashes.map((hash) => Buffer.from(hash));
  copy[at][at % 32] ^= 1;
  return copy;
}

const refused = (promise, why) => assert.rejects(promise, (error) => {
  assert.ok(error instanceof LogCheckError, `${why}: ${error}`);
  assert.equal(error.code, "bad_proof", why);
  return true;
}, why);

describe("RFC 9162 hashing", () => {
  test("a leaf is hashed behind 0x00 and a node behind 0x01, as the independent tree does", async () => {
    assert.deepEqual(Buffer.from(await leafHash(LEAVES[3])), hashLeaf(LEAVES[3]));
    assert.deepEqual(Buffer.from(await leafHash(Buffer.from(LEAVES[3]))), hashLeaf(LEAVES[3]));
    const [a, b] = [hashLeaf("a"), hashLeaf("b")];
    assert.deepEqual(Buffer.from(await nodeHash(a, b)), hashNode(a, b));
    // RFC 6962's empty leaf: SHA-256(0x00)
    assert.equal(Buffer.from(await leafHash("")).toString("hex"),
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  });
});

describe("inclusion proofs", () => {
  test("every leaf of every tree of 1 to 70 leaves is proved, bytes or base64 alike", async () => {
    for (let n = 1; n <= SIZES; n += 1) {
      await forEvery(upTo(n), async (m) => {
        const proof = path(m, LEAVES, 0, n);
        const root = await rootFromInclusionProof({ index: m, treeSize: n, leafHash: hashLeaf(LEAVES[m]), proof });
        assert.deepEqual(Buffer.from(root), ROOTS[n], `#${m} of ${n}`);
        await verifyInclusion({
          index: m,
          treeSize: n,
          leafHash: hashLeaf(LEAVES[m]).toString("base64"),
          proof: proof.map((hash) => hash.toString("base64")),
          rootHash: ROOTS[n].toString("base64"),
        });
      });
    }
  });

  test("a tampered proof, another leaf, place, size or root, a proof too long or too short: each is refused", async () => {
    for (let n = 1; n <= SIZES; n += 1) {
      await forEvery(places(n), async (m) => {
        const proof = path(m, LEAVES, 0, n);
        const claim = { index: m, treeSize: n, leafHash: hashLeaf(LEAVES[m]), proof, rootHash: ROOTS[n] };
        const at = `#${m} of ${n}`;
        const forgeries = upTo(proof.length).map((i) => [{ proof: flipped(proof, i) }, `${at}, hash ${i} tampered`]);
        forgeries.push([{ leafHash: hashLeaf(`${LEAVES[m]} `) }, `${at}, another leaf`]);
        if (n > 1) {
          forgeries.push([{ index: (m + 1) % n }, `${at} claimed at ${(m + 1) % n}`]);
          forgeries.push([{ rootHash: ROOTS[n - 1] }, `${at} against the root of ${n - 1}`]);
          forgeries.push([{ proof: proof.slice(1) }, `${at}, its first hash left out`]);
        }
        if (n < SIZES) forgeries.push([{ treeSize: n + 1, rootHash: ROOTS[n + 1] }, `${at} claimed in the tree of ${n + 1}`]);
        forgeries.push([{ proof: [...proof, ROOTS[n]] }, `${at}, a hash too many`]);
        await forEvery(forgeries, ([forged, why]) => refused(verifyInclusion({ ...claim, ...forged }), why));
      });
    }
  });

  test("a place outside the tree, a size that is none and a hash that is not 32 bytes are refused", async () => {
    const claim = { index: 0, treeSize: 1, leafHash: hashLeaf(LEAVES[0]), proof: [], rootHash: ROOTS[1] };
    await verifyInclusion(claim);
    await refused(verifyInclusion({ ...claim, index: 1 }), "index = size");
    await refused(verifyInclusion({ ...claim, index: -1 }), "a negative index");
    await refused(verifyInclusion({ ...claim, treeSize: 1.5 }), "a fractional size");
    await refused(verifyInclusion({ ...claim, treeSize: 0 }), "the empty tree");
    await refused(verifyInclusion({ ...claim, rootHash: ROOTS[1].subarray(1) }), "a 31-byte root");
    await refused(verifyInclusion({ ...claim, rootHash: "not base64!" }), "a root that is not base64");
    // a proof that stops short at a subtree's root, claimed as the whole tree's
    await refused(verifyInclusion({ ...claim, treeSize: 2 }), "#0 of 2 with the root of its first leaf");
    const first4 = path(1, LEAVES, 0, 4);
    await refused(verifyInclusion({ index: 1, treeSize: 5, leafHash: hashLeaf(LEAVES[1]), proof: first4, rootHash: ROOTS[4] }),
      "#1 of 5 proved to the root of its first 4");
  });
});

describe("consistency proofs", () => {
  test("every tree of up to 70 leaves extends each smaller one, bytes or base64 alike", async () => {
    for (let n = 0; n <= SIZES; n += 1) {
      await forEvery(upTo(n + 1), async (m) => {
        const proof = m === 0 ? [] : subproof(m, LEAVES, 0, n, true);
        await verifyConsistency({ firstSize: m, secondSize: n, firstRoot: ROOTS[m], secondRoot: ROOTS[n], proof });
        await verifyConsistency({
          firstSize: m,
          secondSize: n,
          firstRoot: ROOTS[m].toString("base64"),
          secondRoot: ROOTS[n].toString("base64"),
          proof: proof.map((hash) => hash.toString("base64")),
        });
      });
    }
  });

  test("a tampered proof, a wrong root, swapped or wrong sizes, a proof too long or too short: each is refused", async () => {
    for (let n = 2; n <= SIZES; n += 1) {
      await forEvery(places(n).filter((place) => place > 0), async (m) => {
        const proof = subproof(m, LEAVES, 0, n, true);
        const claim = { firstSize: m, secondSize: n, firstRoot: ROOTS[m], secondRoot: ROOTS[n], proof };
        const at = `${m} to ${n}`;
        const forgeries = upTo(proof.length).map((i) => [{ proof: flipped(proof, i) }, `${at}, hash ${i} tampered`]);
        forgeries.push([{ firstRoot: ROOTS[m - 1] }, `${at}, the first root of ${m - 1}`]);
        forgeries.push([{ secondRoot: ROOTS[n - 1] }, `${at}, the second root of ${n - 1}`]);
        forgeries.push([{ secondRoot: mth([...LEAVES.slice(0, n - 1), "forged"]) }, `${at}, a second tree whose last leaf differs`]);
        forgeries.push([{ firstSize: n, secondSize: m, firstRoot: ROOTS[n], secondRoot: ROOTS[m] }, `${at} swapped`]);
        if (n < SIZES) forgeries.push([{ secondSize: n + 1, secondRoot: ROOTS[n + 1] }, `${at} claimed to ${n + 1}`]);
        forgeries.push([{ proof: proof.slice(0, -1) }, `${at}, its last hash left out`]);
        forgeries.push([{ proof: [...proof, ROOTS[1]] }, `${at}, a hash too many`]);
        await forEvery(forgeries, ([forged, why]) => refused(verifyConsistency({ ...claim, ...forged }), why));
      });
    }
  });

  test("equal sizes take equal roots and no proof; the empty tree takes no proof", async () => {
    await refused(verifyConsistency({ firstSize: 5, secondSize: 5, firstRoot: ROOTS[5], secondRoot: ROOTS[4], proof: [] }),
      "equal sizes, different roots");
    await refused(verifyConsistency({ firstSize: 5, secondSize: 5, firstRoot: ROOTS[5], secondRoot: ROOTS[5], proof: [ROOTS[1]] }),
      "equal sizes with a proof");
    await refused(verifyConsistency({ firstSize: 0, secondSize: 5, firstRoot: ROOTS[0], secondRoot: ROOTS[5], proof: [ROOTS[1]] }),
      "from the empty tree with a proof");
    await refused(verifyConsistency({ firstSize: 3, secondSize: 5, firstRoot: ROOTS[3], secondRoot: ROOTS[5], proof: [] }),
      "an empty proof between different sizes");
    await refused(verifyConsistency({ firstSize: 3, secondSize: 5, firstRoot: ROOTS[3], secondRoot: ROOTS[4],
      proof: subproof(3, LEAVES, 0, 4, true) }), "3 to 5 proved to the root of 4");
  });
});

// ---- signed notes ---------------------------------------------------------------------------------------------------

/** An Ed25519 key made here: its name, the raw public key, a verifier key written by hand, and a signer. */
function makeKey(name) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x, "base64url");
  const id = sha(Buffer.from(`${name}\n`), Buffer.from([1]), raw).subarray(0, 4);
  return {
    name,
    raw,
    id,
    vkey: `${name}+${id.toString("hex")}+${Buffer.concat([Buffer.from([1]), raw]).toString("base64")}`,
    line: (text) => `— ${name} ${Buffer.concat([id, sign(null, Buffer.from(text), privateKey)]).toString("base64")}\n`,
  };
}

const signed = (text, ...keys) => `${text}\n${keys.map((key) => key.line(text)).join("")}`;

const rejectsWith = (promise, code, why) => assert.rejects(promise, (error) => {
  assert.ok(error instanceof LogCheckError, `${why}: ${error}`);
  assert.equal(error.code, code, `${why}: ${error.message}`);
  return true;
}, why);

describe("signed notes", () => {
  const log = makeKey("referee.example/log");
  const witness = makeKey("witness.example/w1");
  const text = "referee.example/log\n12\nabc\n";

  test("the examples of the signed-note spec and of Go's note package verify", async () => {
    const spec = await openSignedNote(
      "This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n",
      "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
    );
    assert.equal(spec.text, "This is an example message.\n");
    const go = await openSignedNote(
      "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n\n" +
        "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n" +
        "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n",
      "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    );
    assert.deepEqual(go.verified.map(({ name, keyId }) => [name, keyId]), [["PeterNeumann", 0xc74f20a3]]);
    assert.deepEqual(go.unverified.map(({ name }) => name), ["EnochRoot"]);
  });

  test("a verifier key is parsed, its ID the hash of its name and key", async () => {
    const key = await parseVerifierKey(`${log.vkey}\n`);
    assert.equal(key.name, log.name);
    assert.equal(key.keyId, log.id.readUInt32BE(0));
    assert.equal(await keyIdOf(log.name, 1, log.raw), key.keyId);
    assert.deepEqual(Buffer.from(key.publicKey), log.raw);
  });

  test("a key with a wrong ID, type, length or name, or that is not name+id+key, is refused", async () => {
    const [name, id, material] = [log.name, log.id.toString("hex"), Buffer.concat([Buffer.from([1]), log.raw])];
    const bad = {
      "another ID": `${name}+${(log.id.readUInt32BE(0) ^ 1).toString(16).padStart(8, "0")}+${material.toString("base64")}`,
      "another name": `referee.example/other+${id}+${material.toString("base64")}`,
      "an ECDSA type byte": `${name}+${id}+${Buffer.concat([Buffer.from([2]), log.raw]).toString("base64")}`,
      "a 31-byte key": `${name}+${id}+${material.subarray(0, 32).toString("base64")}`,
      "a 7-digit ID": `${name}+${id.slice(1)}+${material.toString("base64")}`,
      "a name with a space": `referee example+${id}+${material.toString("base64")}`,
      "an empty name": `+${id}+${material.toString("base64")}`,
      "no key": `${name}+${id}`,
      "a key that is not base64": `${name}+${id}+${material.toString("base64")}!`,
    };
    for (const [why, vkey] of Object.entries(bad)) await rejectsWith(parseVerifierKey(vkey), "malformed_key", why);
  });

  test("key names follow Go's rule: not empty, no Unicode space, no plus", () => {
    for (const name of ["example.com/log", "PeterNeumann", "é/ü", "a_b-c.d"]) assert.ok(isValidKeyName(name), name);
    for (const name of ["", "a b", "a\tb", "a+b", "a\u00a0b", "a\u0085b", "a\u2028b", "a\u3000b", "a\u2009b"]) {
      assert.ok(!isValidKeyName(name), JSON.stringify(name));
    }
  });

  test("a note signed here verifies; its text ends with its newline, without the blank line", async () => {
    const opened = await openSignedNote(signed(text, log), log.vkey);
    assert.equal(opened.text, text);
    assert.deepEqual(opened.verified.map(({ name }) => name), [log.name]);
  });

  test("several signatures: the known key's verifies, the others are ignored in any order", async () => {
    const stranger = makeKey("stranger.example");
    const opened = await openSignedNote(signed(text, witness, log, stranger), [await parseVerifierKey(log.vkey)]);
    assert.deepEqual(opened.verified.map(({ name }) => name), [log.name]);
    assert.deepEqual(opened.unverified.map(({ name }) => name), [witness.name, stranger.name]);
    const both = await openSignedNote(signed(text, witness, log), [log.vkey, witness.vkey]);
    assert.deepEqual(both.verified.map(({ name }) => name), [witness.name, log.name]);
  });

  test("a signature that shares the name or the ID of the known key, but not both, is ignored", async () => {
    const namesake = makeKey(log.name); // the same name, another key (another ID)
    await rejectsWith(openSignedNote(signed(text, namesake), log.vkey), "unsigned", "the name alone");
    const idOnly = `${text}\n— ${witness.name} ${Buffer.concat([log.id, Buffer.alloc(64)]).toString("base64")}\n`;
    await rejectsWith(openSignedNote(idOnly, log.vkey), "unsigned", "the ID alone");
  });

  test("a known key's signature over other text, or a bad one, rejects the whole note", async () => {
    await rejectsWith(openSignedNote(signed(text, log).replace("12", "13"), log.vkey), "bad_signature", "text changed");
    const bad = `${text}\n— ${log.name} ${Buffer.concat([log.id, Buffer.alloc(64)]).toString("base64")}\n`;
    await rejectsWith(openSignedNote(`${bad}${witness.line(text)}`, [log.vkey, witness.vkey]), "bad_signature", "zeros");
    const short = `${text}\n— ${log.name} ${Buffer.concat([log.id, Buffer.alloc(10)]).toString("base64")}\n`;
    await rejectsWith(openSignedNote(short, log.vkey), "bad_signature", "a short signature");
  });

  test("two keys given with one name and ID are refused, as Go's VerifierList does", async () => {
    const colliding = await parseVerifierKey(log.vkey);
    const other = { ...colliding, publicKey: witness.raw }; // forged to the same name and ID
    await rejectsWith(openSignedNote(signed(text, log), [colliding, other]), "malformed_key", "ambiguous keys");
    assert.equal((await openSignedNote(signed(text, log), [log.vkey, log.vkey])).verified.length, 1);
  });

  test("a second signature by the known key is not looked at", async () => {
    const twice = `${signed(text, log)}— ${log.name} ${Buffer.concat([log.id, Buffer.alloc(64)]).toString("base64")}\n`;
    assert.equal((await openSignedNote(twice, log.vkey)).verified.length, 1);
  });

  test("malformed notes are refused before any signature is looked at", () => {
    const good = signed(text, log);
    const bad = {
      "no blank line": good.replace("\n\n", "\n"),
      "no final newline": good.slice(0, -1),
      "CRLF line ends": good.replaceAll("\n", "\r\n"),
      "a tab": good.replace("12", "1\t2"),
      "a line without the em dash": good.replace("— ", "- "),
      "a name with a plus": good.replace(`— ${log.name}`, "— a+b"),
      "a signature that is not base64": good.replace(/ ([^ ]+)\n$/, " ***\n"),
      "a signature of 4 bytes": `${text}\n— ${log.name} ${log.id.toString("base64")}\n`,
      "101 signatures": `${text}\n${log.line(text).repeat(101)}`,
    };
    for (const [why, note] of Object.entries(bad)) {
      assert.throws(() => parseSignedNote(note), (error) => error.code === "malformed_note", why);
    }
    assert.equal(parseSignedNote(`${text}\n${log.line(text).repeat(100)}`).signatures.length, 100);
    // the text may hold blank lines: the last one separates it from the signatures
    assert.equal(parseSignedNote(signed("a\n\nb\n", log)).text, "a\n\nb\n");
  });
});

describe("checkpoints", () => {
  const log = makeKey("referee.example/log");
  const root = ROOTS[12].toString("base64");

  test("a checkpoint is parsed: origin, size, root hash and extension lines", () => {
    const checkpoint = parseCheckpoint(`referee.example/log\n12\n${root}\nextra one\n`);
    assert.equal(checkpoint.origin, "referee.example/log");
    assert.equal(checkpoint.size, 12);
    assert.deepEqual(Buffer.from(checkpoint.rootHash), ROOTS[12]);
    assert.deepEqual(checkpoint.extensions, ["extra one"]);
    assert.equal(parseCheckpoint(`o\n0\n${ROOTS[0].toString("base64")}\n`).size, 0);
  });

  test("a checkpoint with a size or root that is not one, or a line missing or empty, is refused", () => {
    for (const [why, body] of Object.entries({
      "a leading zero": `o\n012\n${root}\n`,
      "a negative size": `o\n-1\n${root}\n`,
      "a size past 2^53": `o\n9007199254740993\n${root}\n`,
      "a short root": `o\n12\n${ROOTS[12].subarray(1).toString("base64")}\n`,
      "no root": "o\n12\n",
      "no origin": `\n12\n${root}\n`,
      "an empty extension line": `o\n12\n${root}\n\nx\n`,
      "no final newline": `o\n12\n${root}`,
    })) {
      assert.throws(() => parseCheckpoint(body), (error) => error.code === "malformed_checkpoint", why);
    }
  });

  test("a signed checkpoint opens with the log's key, whose name must be its origin", async () => {
    const checkpoint = await openCheckpoint(signed(`${log.name}\n12\n${root}\n`, log), log.vkey);
    assert.equal(checkpoint.size, 12);
    await rejectsWith(openCheckpoint(signed(`other.example/log\n12\n${root}\n`, log), log.vkey), "malformed_checkpoint",
      "another log's origin");
  });

  test("a checkpoint Python's cryptography signed (tests/data/signed-note.json) opens here, with its proofs", async () => {
    const checkpoint = await openCheckpoint(fixture.checkpoint, fixture.vkey);
    assert.equal(checkpoint.origin, fixture.origin);
    assert.equal(checkpoint.size, fixture.leaves.length);
    const cosigned = await openSignedNote(fixture.cosigned, [fixture.vkey, fixture.witness_vkey]);
    assert.deepEqual(cosigned.verified.map(({ name }) => name), [fixture.origin, fixture.witness]);
    for (const [index, { leaf, leaf_hash: hash }] of fixture.leaves.entries()) {
      assert.equal(Buffer.from(await leafHash(leaf)).toString("base64"), hash);
      await verifyInclusion({ index, treeSize: checkpoint.size, leafHash: hash, proof: fixture.inclusion[index],
        rootHash: checkpoint.rootHash });
    }
    for (const { first, second, first_root: firstRoot, hashes } of fixture.consistency) {
      assert.equal(second, checkpoint.size);
      await verifyConsistency({ firstSize: first, secondSize: second, firstRoot, secondRoot: checkpoint.rootHash,
        proof: hashes });
    }
  });
});

// ---- checkLogged against a log served here ---------------------------------------------------------------------------

/** A referee's log of `LEAVES`, signed by `key` at `size`, answering as the API does; `change` alters one answer. */
function servedLog({ key, size, change = (path, answer) => answer, runs = {} }) {
  const checkpoint = signed(`${key.name}\n${size}\n${ROOTS[size].toString("base64")}\n`, key);
  const logged = Object.fromEntries(LEAVES.map((leaf, index) => [JSON.parse(leaf).run, index]));
  const byHash = Object.fromEntries(LEAVES.map((leaf, index) => [hashLeaf(leaf).toString("base64"), index]));
  const answers = (url) => {
    const { pathname, searchParams } = new URL(url);
    const run = pathname.match(/^\/v1\/runs\/(.+)$/)?.[1];
    if (run) {
      const index = logged[run];
      return runs[run] ?? { id: run, status: "verified", log: index === undefined ? undefined : {
        index, leaf_hash: hashLeaf(LEAVES[index]).toString("base64") } };
    }
    if (pathname === "/v1/log/key") return `${key.vkey}\n`;
    if (pathname === "/v1/log/checkpoint") return checkpoint;
    if (pathname === "/v1/log/entries") {
      const [start, end] = [Number(searchParams.get("start")), Number(searchParams.get("end"))];
      return { entries: LEAVES.slice(start, end).map((leaf, i) => ({
        index: start + i, leaf, leaf_hash: hashLeaf(leaf).toString("base64") })) };
    }
    if (pathname === "/v1/log/proof/inclusion") {
      const [index, treeSize] = [byHash[searchParams.get("leaf")], Number(searchParams.get("size"))];
      return { index, tree_size: treeSize, hashes: path(index, LEAVES, 0, treeSize).map((h) => h.toString("base64")) };
    }
    return null;
  };
  return async (url) => {
    const answer = change(new URL(url).pathname, answers(url));
    if (answer === null) return new Response("{}", { status: 404 });
    return new Response(typeof answer === "string" ? answer : JSON.stringify(answer), { status: 200 });
  };
}

describe("checkLogged", () => {
  const key = makeKey("referee.example/log");
  const api = (options) => ({ baseUrl: "http://referee.test", fetch: servedLog({ key, size: 40, ...options }) });

  test("a logged run under the latest checkpoint checks out: its place, the tree's size and its leaf", async () => {
    const checked = await checkLogged(api(), "run-17");
    assert.equal(checked.index, 17);
    assert.equal(checked.treeSize, 40);
    assert.equal(checked.origin, key.name);
    assert.equal(checked.rootHash, ROOTS[40].toString("base64"));
    assert.deepEqual(checked.leaf, JSON.parse(LEAVES[17]));
    assert.equal((await checkLogged(api(), "run-39")).index, 39);
  });

  test("a run not logged yet, or logged after the latest checkpoint, says so", async () => {
    await rejectsWith(checkLogged(api({ runs: { fresh: { id: "fresh", status: "pending" } } }), "fresh"), "not_logged",
      "no log place");
    await rejectsWith(checkLogged(api(), "run-40"), "not_yet_checkpointed", "after the checkpoint");
  });

  test("a key held by the reader is the one the checkpoint must be signed with", async () => {
    assert.equal((await checkLogged(api(), "run-3", { key: key.vkey })).index, 3);
    await rejectsWith(checkLogged(api(), "run-3", { key: makeKey(key.name).vkey }), "unsigned", "another key of the name");
  });

  test("a forged checkpoint, proof, leaf or place is caught", async () => {
    const forger = makeKey(key.name);
    const cases = {
      bad_signature: (p, a) => (p === "/v1/log/checkpoint" ? a.replace("\n40\n", "\n41\n") : a),
      unsigned: (p, a) => (p === "/v1/log/checkpoint" ? signed(a.slice(0, a.lastIndexOf("\n\n") + 1), forger) : a),
      bad_proof: (p, a) => (p === "/v1/log/proof/inclusion" ? { ...a, hashes: a.hashes.slice(1) } : a),
      wrong_leaf: (p, a) => (p === "/v1/log/entries"
        ? { entries: a.entries.map((entry) => ({ ...entry, leaf: entry.leaf.replace("-13", "99") })) } : a),
    };
    for (const [code, change] of Object.entries(cases)) await rejectsWith(checkLogged(api({ change }), "run-17"), code, code);
    const elsewhere = { "run-17": { id: "run-17", log: { index: 18, leaf_hash: hashLeaf(LEAVES[18]).toString("base64") } } };
    await rejectsWith(checkLogged(api({ runs: elsewhere }), "run-17"), "wrong_leaf", "another run's leaf");
    const movedProof = (p, a) => (p === "/v1/log/proof/inclusion" ? { ...a, tree_size: 39 } : a);
    await rejectsWith(checkLogged(api({ change: movedProof }), "run-17"), "bad_proof", "a proof at another size");
  });

  test("the log's answers are asked for as text and JSON; a refusal is the API's error, but for no checkpoint yet", async () => {
    const seen = [];
    const fetch = servedLog({ key, size: 40 });
    const watched = { baseUrl: "http://referee.test", fetch: (url, init) => (seen.push([new URL(url).pathname,
      `${init.headers.Accept} ${init.cache ?? "default"}`]), fetch(url, init)) };
    await checkLogged(watched, "run-2");
    assert.deepEqual(Object.fromEntries(seen), {
      "/v1/runs/run-2": "application/json default",
      "/v1/log/key": "text/plain default",
      "/v1/log/checkpoint": "text/plain no-cache", // the latest, not a copy a cache kept
      "/v1/log/entries": "application/json default",
      "/v1/log/proof/inclusion": "application/json default",
    });
    seen.length = 0;
    const run = { id: "run-2", log: { index: 2, leaf_hash: hashLeaf(LEAVES[2]).toString("base64") } };
    assert.equal((await checkLogged(watched, "run-2", { run })).index, 2);
    assert.ok(!seen.some(([path]) => path.startsWith("/v1/runs/")), "the run given is not asked for again");
    const noKey = (p, a) => (p === "/v1/log/key" ? null : a);
    await assert.rejects(checkLogged(api({ change: noKey }), "run-2"), { name: "ApiError", status: 404 });
    const noCheckpoint = (p, a) => (p === "/v1/log/checkpoint" ? null : a); // none signed yet
    await rejectsWith(checkLogged(api({ change: noCheckpoint }), "run-2"), "not_yet_checkpointed", "no checkpoint yet");
  });
});
