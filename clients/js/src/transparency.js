/**
 * The public log's checks: anyone can tell that a run's verdict is in the
 * referee's append-only log, and that the log only ever grew.
 *
 * The referee appends every verdict to a Merkle tree (RFC 9162 §2.1:
 * SHA-256, a leaf hashed behind 0x00, a node behind 0x01) and signs its head
 * as a checkpoint (c2sp.org/tlog-checkpoint): a signed note
 * (c2sp.org/signed-note, the format of Go's checksum database) whose text is
 * the log's origin, its size and its root hash. A verdict's inclusion proof
 * leads from its leaf to that root, and a consistency proof from an older
 * checkpoint's root to a newer one. Each check here rejects with a
 * LogCheckError that says what did not hold; the hashes and the signature
 * are computed with Web Crypto (Ed25519 in Node 20 and current browsers).
 *
 *     import { checkLogged } from "./src/index.js";
 *     const { index, treeSize } = await checkLogged({ baseUrl }, runId);
 */

import { endpoint, getRun, request } from "./api.js";
import { subtleCrypto } from "./deal.js";

/** The signature type byte of an Ed25519 key in a signed note and its verifier key (signed-note). */
export const ED25519 = 0x01;

/** The most signatures a note may carry, as Go's `note.Open` allows (signed-note asks for at least 16). */
export const MAX_SIGNATURES = 100;

const HASH_BYTES = 32;
const SIGNATURE_PREFIX = "\u2014 "; // an em dash and a space
const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
/** Go's `unicode.IsSpace` (a key name holds none of these), and the plus that separates a verifier key's parts. */
const NOT_IN_KEY_NAME = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000+]/u;

/**
 * A check of the public log that did not hold. `code` says which:
 * `malformed_key`, `malformed_note`, `malformed_checkpoint`, `bad_signature`
 * (a known key's signature does not verify), `unsigned` (no signature by a
 * known key), `unsupported` (no Ed25519 in this Web Crypto), `bad_proof`,
 * `wrong_leaf` (the leaf is not the run's), `not_logged` (the run has no
 * place in the log yet), `not_yet_checkpointed` (it has one, after the
 * latest checkpoint's size, or before the first checkpoint).
 */
export class LogCheckError extends Error {
  constructor(message, { code, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "LogCheckError";
    this.code = code;
  }
}

const fail = (code, message) => {
  throw new LogCheckError(message, { code });
};

// ---- bytes ---------------------------------------------------------------------------------------------------------

/** Standard base64 with its padding (RFC 4648 §4) as bytes; null for any other text. */
function fromBase64(text) {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
}

const toBase64 = (bytes) => btoa(String.fromCharCode(...bytes));

const utf8 = (text) => new TextEncoder().encode(text);

const sameBytes = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);

async function sha256(...parts) {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  parts.reduce((at, part) => (joined.set(part, at), at + part.length), 0);
  return new Uint8Array(await subtleCrypto().digest("SHA-256", joined));
}

/** A hash as the API and checkpoints write it (base64) or as bytes, as 32 bytes; `what` names it in the error. */
function hashOf(value, what) {
  const bytes = value instanceof Uint8Array ? value : fromBase64(value);
  if (bytes === null || bytes.length !== HASH_BYTES) fail("bad_proof", `${what} is not a SHA-256 hash`);
  return bytes;
}

// ---- signed notes --------------------------------------------------------------------------------------------------

/** Whether `name` may name a key: not empty, no Unicode space, no plus (signed-note; Go's `isValidName`). */
export function isValidKeyName(name) {
  return typeof name === "string" && name !== "" && !NOT_IN_KEY_NAME.test(name);
}

/** The key ID of a key: the first 4 bytes of SHA-256(name, newline, type byte, public key), big-endian. */
export async function keyIdOf(name, type, publicKey) {
  const digest = await sha256(utf8(`${name}\n`), Uint8Array.of(type), publicKey);
  return new DataView(digest.buffer).getUint32(0, false);
}

/**
 * A verifier key, `<name>+<key ID, 8 hex digits>+<base64(type byte || public key)>`, as
 * `{name, keyId, type, publicKey, text}`. Only Ed25519 keys are known; the
 * key ID must be the one the name and key give. Surrounding whitespace (a
 * file's last newline) is ignored.
 */
export async function parseVerifierKey(vkey) {
  const text = String(vkey).trim();
  const first = text.indexOf("+");
  const second = text.indexOf("+", first + 1);
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  const material = first < 0 || second < 0 ? null : fromBase64(text.slice(second + 1));
  if (!isValidKeyName(name) || !/^[0-9a-fA-F]{8}$/.test(hex) || material === null || material.length === 0) {
    fail("malformed_key", `not a verifier key (name+keyid+base64): ${JSON.stringify(text.slice(0, 120))}`);
  }
  const [type, publicKey] = [material[0], material.subarray(1)];
  if (type !== ED25519) fail("malformed_key", `the key ${name} is of type ${type}: only Ed25519 (1) is known`);
  if (publicKey.length !== 32) fail("malformed_key", `the key ${name} is not a 32-byte Ed25519 key`);
  const keyId = await keyIdOf(name, type, publicKey);
  if (keyId !== Number.parseInt(hex, 16)) {
    fail("malformed_key", `the key ${name}'s ID ${hex} is not the hash of its name and key`);
  }
  return Object.freeze({ name, keyId, type, publicKey, text });
}

/**
 * A signed note's parts, unverified: `{text, signatures}`, the text with its
 * final newline, each signature `{name, keyId, signature}` (bytes after the
 * key ID) in the order of the note. Rejects (`malformed_note`) a note with a
 * control character other than newline, without the blank line before its
 * signature lines, with a line there that is not one, or with more than
 * MAX_SIGNATURES of them.
 */
export function parseSignedNote(note) {
  if (typeof note !== "string" || /[\u0000-\u0009\u000b-\u001f]/.test(note)) {
    fail("malformed_note", "a signed note is UTF-8 text with no control character but newline");
  }
  const split = note.lastIndexOf("\n\n");
  const block = note.slice(split + 2);
  if (split < 0 || !block.endsWith("\n")) fail("malformed_note", "a signed note ends in a blank line and signature lines");
  const lines = block.slice(0, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) fail("malformed_note", `a note may carry at most ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line) => {
    const space = line.indexOf(" ", SIGNATURE_PREFIX.length);
    const name = line.slice(SIGNATURE_PREFIX.length, space);
    const bytes = space < 0 ? null : fromBase64(line.slice(space + 1));
    if (!line.startsWith(SIGNATURE_PREFIX) || !isValidKeyName(name) || bytes === null || bytes.length < 5) {
      fail("malformed_note", `not a signature line ("— <key name> <base64>"): ${JSON.stringify(line.slice(0, 120))}`);
    }
    return Object.freeze({ name, keyId: new DataView(bytes.buffer).getUint32(0, false), signature: bytes.subarray(4) });
  });
  return Object.freeze({ text: note.slice(0, split + 1), signatures: Object.freeze(signatures) });
}

async function ed25519Verifies(publicKey, signature, message) {
  if (signature.length !== 64) return false;
  let key;
  try {
    key = await subtleCrypto().importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  } catch (error) {
    throw new LogCheckError(`this Web Crypto cannot verify Ed25519 signatures (${error?.message ?? error})`, {
      code: "unsupported",
      cause: error,
    });
  }
  return subtleCrypto().verify({ name: "Ed25519" }, key, signature, message);
}

/**
 * Open a signed note with the verifier keys trusted (one, or a list; parsed or
 * as text): resolves to `{text, verified, unverified}` once every signature by
 * a known key (the same name and key ID) verifies and at least one does.
 * Signatures by other keys are ignored (`unverified`), as signed-note asks, and
 * a known key's second signature too. Rejects `bad_signature` when a known
 * key's signature does not verify, `unsigned` when no known key signed, and
 * `malformed_key` for two keys given with one name and ID (as Go's
 * `VerifierList` does: a list so made is not to be trusted).
 */
export async function openSignedNote(note, keys) {
  const known = await Promise.all([keys].flat().map((key) => (typeof key === "string" ? parseVerifierKey(key) : key)));
  const ambiguous = known.find((key, i) => known.slice(i + 1).some(({ name, keyId, publicKey }) =>
    name === key.name && keyId === key.keyId && !sameBytes(publicKey, key.publicKey)));
  if (ambiguous) fail("malformed_key", `two keys given share the name and ID ${ambiguous.name}+${ambiguous.keyId.toString(16)}`);
  const { text, signatures } = parseSignedNote(note);
  const message = utf8(text);
  const verified = [];
  const unverified = [];
  for (const signature of signatures) {
    const key = known.find(({ name, keyId }) => name === signature.name && keyId === signature.keyId);
    if (!key) unverified.push(signature);
    else if (!verified.some(({ name, keyId }) => name === key.name && keyId === key.keyId)) {
      if (!(await ed25519Verifies(key.publicKey, signature.signature, message))) {
        fail("bad_signature", `the signature by ${key.name} does not verify: the note is not what the key signed`);
      }
      verified.push(signature);
    }
  }
  if (!verified.length) {
    fail("unsigned", `no signature by ${known.map(({ name }) => name).join(", ") || "a trusted key"} on the note`);
  }
  return Object.freeze({ text, verified: Object.freeze(verified), unverified: Object.freeze(unverified) });
}

// ---- checkpoints ---------------------------------------------------------------------------------------------------

/**
 * A checkpoint's text (tlog-checkpoint): `{origin, size, rootHash, extensions}`,
 * the origin line, the tree size (a safe integer), the root hash (32 bytes)
 * and any extension lines. Rejects `malformed_checkpoint`.
 */
export function parseCheckpoint(text) {
  const lines = typeof text === "string" && text.endsWith("\n") ? text.slice(0, -1).split("\n") : [];
  const [origin, size, root, ...extensions] = lines;
  const rootHash = lines.length >= 3 ? fromBase64(root) : null;
  if (lines.length < 3 || !origin) fail("malformed_checkpoint", "a checkpoint is an origin, a size and a root hash, a line each");
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    fail("malformed_checkpoint", `the checkpoint's size ${JSON.stringify(size)} is not a number of leaves`);
  }
  if (rootHash === null || rootHash.length !== HASH_BYTES) {
    fail("malformed_checkpoint", `the checkpoint's root ${JSON.stringify(root)} is not a base64 SHA-256 hash`);
  }
  if (extensions.some((line) => line === "")) fail("malformed_checkpoint", "a checkpoint's extension line is not empty");
  return Object.freeze({ origin, size: Number(size), rootHash, extensions: Object.freeze(extensions) });
}

/**
 * A signed checkpoint opened with the log's key (`openSignedNote`) and parsed
 * (`parseCheckpoint`): `{origin, size, rootHash, extensions}`. The origin must
 * be the key's name, as the log signs it (tlog-checkpoint), so a key that signs
 * for two logs cannot pass one log's head off as the other's.
 */
export async function openCheckpoint(note, key) {
  const trusted = typeof key === "string" ? await parseVerifierKey(key) : key;
  const checkpoint = parseCheckpoint((await openSignedNote(note, trusted)).text);
  if (checkpoint.origin !== trusted.name) {
    fail("malformed_checkpoint", `the checkpoint is of the log ${checkpoint.origin}, not ${trusted.name}`);
  }
  return checkpoint;
}

// ---- the Merkle tree (RFC 9162 §2.1) -------------------------------------------------------------------------------

/** A leaf's hash, SHA-256(0x00 || leaf): the leaf's text (UTF-8) or bytes. */
export function leafHash(leaf) {
  return sha256(Uint8Array.of(LEAF_PREFIX), typeof leaf === "string" ? utf8(leaf) : leaf);
}

/** An inner node's hash, SHA-256(0x01 || left || right). */
export function nodeHash(left, right) {
  return sha256(Uint8Array.of(NODE_PREFIX), left, right);
}

const half = (n) => Math.floor(n / 2);
const odd = (n) => n % 2 === 1;

function checkSize(value, what) {
  if (!Number.isSafeInteger(value) || value < 0) fail("bad_proof", `${what} ${JSON.stringify(value)} is not a size`);
}

/**
 * The root an inclusion proof leads to from the leaf hash at `index` in a tree
 * of `treeSize` leaves (RFC 9162 §2.1.3.2); rejects `bad_proof` for a proof
 * of the wrong length for that place. Hashes as bytes or base64.
 */
export async function rootFromInclusionProof({ index, treeSize, leafHash: leaf, proof }) {
  checkSize(index, "the index");
  checkSize(treeSize, "the tree size");
  if (index >= treeSize) fail("bad_proof", `leaf #${index} is not in a tree of ${treeSize}`);
  let [fn, sn, root] = [index, treeSize - 1, hashOf(leaf, "the leaf hash")];
  for (const [step, value] of proof.entries()) {
    const sibling = hashOf(value, `the proof's hash ${step}`);
    if (sn === 0) fail("bad_proof", `the proof has ${proof.length} hashes: too many for #${index} of ${treeSize}`);
    if (odd(fn) || fn === sn) {
      root = await nodeHash(sibling, root);
      while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else root = await nodeHash(root, sibling);
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) fail("bad_proof", `the proof has ${proof.length} hashes: too few for #${index} of ${treeSize}`);
  return root;
}

/** Resolves if the proof leads from the leaf hash at `index` to `rootHash` (RFC 9162 §2.1.3.2), else rejects `bad_proof`. */
export async function verifyInclusion({ index, treeSize, leafHash: leaf, proof, rootHash }) {
  const root = await rootFromInclusionProof({ index, treeSize, leafHash: leaf, proof });
  if (!sameBytes(root, hashOf(rootHash, "the root hash"))) {
    fail("bad_proof", `the inclusion proof of #${index} does not lead to the root of the tree of ${treeSize}`);
  }
}

const powerOfTwo = (n) => {
  while (n > 1 && !odd(n)) n = half(n);
  return n === 1;
};

/**
 * Resolves if the tree of `secondSize` leaves (root `secondRoot`) extends the
 * tree of `firstSize` (root `firstRoot`), leaf for leaf, by the consistency
 * proof (RFC 9162 §2.1.4.2); else rejects `bad_proof`. Equal sizes take an
 * empty proof and equal roots; the empty tree is in every tree.
 */
export async function verifyConsistency({ firstSize, secondSize, firstRoot, secondRoot, proof }) {
  checkSize(firstSize, "the first size");
  checkSize(secondSize, "the second size");
  const [first, second] = [hashOf(firstRoot, "the first root"), hashOf(secondRoot, "the second root")];
  const wrong = (why) => fail("bad_proof", `the tree of ${secondSize} does not extend the tree of ${firstSize}: ${why}`);
  if (firstSize > secondSize) wrong("it is smaller");
  if (firstSize === secondSize || firstSize === 0) {
    if (proof.length) wrong(`the proof has ${proof.length} hashes where none are due`);
    if (firstSize === secondSize && !sameBytes(first, second)) wrong("their roots differ");
    return;
  }
  if (!proof.length) wrong("the proof is empty");
  const path = proof.map((value, step) => hashOf(value, `the proof's hash ${step}`));
  if (powerOfTwo(firstSize)) path.unshift(first);
  let [fn, sn] = [firstSize - 1, secondSize - 1];
  while (odd(fn)) [fn, sn] = [half(fn), half(sn)];
  let [firstHash, secondHash] = [path[0], path[0]];
  for (const hash of path.slice(1)) {
    if (sn === 0) wrong(`the proof has ${proof.length} hashes: too many`);
    if (odd(fn) || fn === sn) {
      [firstHash, secondHash] = [await nodeHash(hash, firstHash), await nodeHash(hash, secondHash)];
      while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else secondHash = await nodeHash(secondHash, hash);
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) wrong(`the proof has ${proof.length} hashes: too few`);
  if (!sameBytes(firstHash, first)) wrong("the proof does not lead to the first root");
  if (!sameBytes(secondHash, second)) wrong("the proof does not lead to the second root");
}

// ---- a run in the referee's log ------------------------------------------------------------------------------------

/** A text answer of the log; `cache` "no-cache" asks past any copy a cache holds (the latest checkpoint). */
async function logText(api, path, signal, cache) {
  const { fetch, retry } = api;
  return (await request(endpoint(api.baseUrl, path), { fetch, retry, signal, cache, text: true })).body;
}

/** The latest checkpoint's note, asked past any cache; none signed yet (404) is the run's wait for the first. */
async function latestCheckpoint(api, runId, index, signal) {
  try {
    return await logText(api, "/v1/log/checkpoint", signal, "no-cache");
  } catch (error) {
    if (error?.status !== 404) throw error;
    throw new LogCheckError(`run ${runId} is #${index} in the public log, which has signed no checkpoint yet`, {
      code: "not_yet_checkpointed",
      cause: error,
    });
  }
}

async function logJson(api, path, signal) {
  const { fetch, retry } = api;
  return (await request(endpoint(api.baseUrl, path), { fetch, retry, signal })).body;
}

/**
 * Check that the run `runId` is in the referee's public log, in this client:
 * the run's `log` place (`GET /v1/runs/<id>`, or `run`: the run's JSON as
 * the API answered it), the log's key (`GET /v1/log/key`, or `key`: a
 * verifier key you hold, which is the stronger check), the latest checkpoint
 * signed by it (`GET /v1/log/checkpoint`), the leaf at that place
 * (`GET /v1/log/entries`: its hash is the run's, and it names the run and
 * the place) and its inclusion proof at the checkpoint's size
 * (`GET /v1/log/proof/inclusion`), verified against the checkpoint's root.
 *
 * `api` is `{baseUrl, token?, fetch?, retry?}` (the token only to read a run
 * sealed to others). Resolves to `{index, treeSize, origin, rootHash, leaf}`
 * (`rootHash` base64, `leaf` the leaf's JSON); rejects LogCheckError with its
 * `code` (`not_logged`, `not_yet_checkpointed` also before the first
 * checkpoint, or what failed), or the ApiError of a request refused.
 */
export async function checkLogged(api, runId, { key, run, signal } = {}) {
  const { fetch, retry, token } = api;
  const logged = (run ?? (await getRun(api.baseUrl, runId, { fetch, retry, token, signal })))?.log;
  if (!logged) fail("not_logged", `run ${runId} is not in the public log yet`);
  const index = logged.index;
  const hash = hashOf(logged.leaf_hash, "the run's leaf hash");
  const trusted = await parseVerifierKey(key ?? (await logText(api, "/v1/log/key", signal)));
  const checkpoint = await openCheckpoint(await latestCheckpoint(api, runId, index, signal), trusted);
  const treeSize = checkpoint.size;
  if (index >= treeSize) {
    fail("not_yet_checkpointed", `run ${runId} is #${index} in the public log, after its latest checkpoint (${treeSize} entries)`);
  }
  const [entries, proof] = await Promise.all([
    logJson(api, `/v1/log/entries?start=${index}&end=${index + 1}`, signal),
    logJson(api, `/v1/log/proof/inclusion?leaf=${encodeURIComponent(toBase64(hash))}&size=${treeSize}`, signal),
  ]);
  const entry = entries?.entries?.find((candidate) => candidate.index === index);
  if (!entry) fail("wrong_leaf", `the log has no entry #${index}`);
  if (!sameBytes(await leafHash(entry.leaf), hash) || !sameBytes(hashOf(entry.leaf_hash, "the entry's hash"), hash)) {
    fail("wrong_leaf", `entry #${index} of the log is not the leaf the run names`);
  }
  let leaf;
  try {
    leaf = JSON.parse(entry.leaf);
  } catch {
    fail("wrong_leaf", `entry #${index} of the log is not JSON`);
  }
  if (leaf?.run !== runId || leaf?.index !== index) {
    fail("wrong_leaf", `entry #${index} of the log is the leaf of run ${leaf?.run} at #${leaf?.index}, not of ${runId} at #${index}`);
  }
  if (proof?.index !== index || proof?.tree_size !== treeSize || !Array.isArray(proof?.hashes)) {
    fail("bad_proof", `the inclusion proof answered is not of #${index} in the tree of ${treeSize}`);
  }
  await verifyInclusion({ index, treeSize, leafHash: hash, proof: proof.hashes, rootHash: checkpoint.rootHash });
  return Object.freeze({ index, treeSize, origin: checkpoint.origin, rootHash: toBase64(checkpoint.rootHash), leaf });
}
