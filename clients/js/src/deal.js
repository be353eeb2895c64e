/**
 * The deal `deal-v1`: a seeded SHA-256 Fisher–Yates shuffle (RULES.md).
 *
 * A web client must deal the very dungeon the referee replays, so this
 * follows the specification word for word. SHA-256 comes from Web Crypto
 * (`crypto.subtle.digest`), which is asynchronous: `deal` returns a Promise.
 */

import { CANONICAL_ORDER } from "./cards.js";
import { DEAL_VERSION, SEED_MESSAGE, SEED_RULE } from "./engine.js";

export { DEAL_VERSION, SEED_MESSAGE };
export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const WORDS_PER_DIGEST = 8;
// 44 cards take 43 words unless uniform() rejects one (p < 1e-8 per word):
// six digests (48 words) almost always suffice; more are hashed on demand.
const FIRST_DIGESTS = 6;
const TWO_POW_32 = 2 ** 32;

/** True for a seed of 1–64 characters from `A–Z a–z 0–9 _ -`. */
export function isValidSeed(seed) {
  return typeof seed === "string" && SEED_PATTERN.test(seed);
}

/** Web Crypto's SubtleCrypto, for SHA-256 (the deal, and a dealt game's commitment). */
export function subtleCrypto() {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error("SHA-256 needs Web Crypto (globalThis.crypto.subtle): use a browser in a secure context or Node 20+");
  }
  return subtle;
}

async function digestWords(prefix, k) {
  const bytes = new TextEncoder().encode(`${prefix}${k}`);
  const view = new DataView(await subtleCrypto().digest("SHA-256", bytes));
  const words = [];
  for (let i = 0; i < WORDS_PER_DIGEST; i += 1) words.push(view.getUint32(i * 4, false));
  return words;
}

/**
 * The dungeon for `seed`, top card (the first dealt) first.
 *
 * Rejects with a TypeError for a seed outside the seed pattern.
 * @param {string} seed
 * @returns {Promise<string[]>}
 */
export async function deal(seed) {
  if (!isValidSeed(seed)) {
    throw new TypeError(`invalid seed ${JSON.stringify(seed)}: ${SEED_RULE}`);
  }
  const prefix = `scoundrel/deal/v1:${seed}:`;
  const first = await Promise.all(Array.from({ length: FIRST_DIGESTS }, (_, k) => digestWords(prefix, k)));
  const words = first.flat();
  let nextDigest = FIRST_DIGESTS;
  let position = 0;
  const cards = [...CANONICAL_ORDER];
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const n = i + 1;
    // uniform(n): accept a word only below floor(2^32 / n) * n, so w mod n is unbiased.
    const limit = Math.floor(TWO_POW_32 / n) * n;
    let word;
    do {
      if (position === words.length) {
        words.push(...(await digestWords(prefix, nextDigest)));
        nextDigest += 1;
      }
      word = words[position];
      position += 1;
    } while (word >= limit);
    const j = word % n;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}
