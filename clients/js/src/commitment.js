/**
 * The commitment of a dealt game: the hex SHA-256 of its seed, published
 * before the first card is dealt and checked once the seed is revealed, so
 * a player can tell the deck was fixed from the start.
 */

import { subtleCrypto } from "./deal.js";

/** The lowercase hex SHA-256 of `seed`'s UTF-8 bytes, as the referee commits to it. */
export async function commitmentOf(seed) {
  const digest = await subtleCrypto().digest("SHA-256", new TextEncoder().encode(seed));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
