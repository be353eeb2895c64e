/**
 * The commitment of a dealt game: the hex SHA-256 of the server's seed,
 * published before the first card is dealt (`next-deal`, before the player
 * chooses a seed of their own) and checked once the seed is revealed, so a
 * player can tell the deck was fixed from the start and that the server did
 * not pick it alone.
 */

import { subtleCrypto } from "./deal.js";

const hex = (buffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** Bytes as base64url without padding (RFC 4648 §5): the alphabet of a seed. */
function base64url(buffer) {
  const text = btoa(String.fromCharCode(...new Uint8Array(buffer)));
  return text.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The lowercase hex SHA-256 of `seed`'s UTF-8 bytes, as the referee commits to it. */
export async function commitmentOf(seed) {
  return hex(await subtleCrypto().digest("SHA-256", new TextEncoder().encode(seed)));
}

/**
 * The seed a game with a client seed is dealt from (deal-v1):
 * base64url(HMAC-SHA256(key = server seed, message = client seed)) without
 * padding, 43 characters. Without a client seed, the server seed itself.
 */
export async function dealtSeed(serverSeed, clientSeed) {
  if (!clientSeed) return serverSeed;
  const encode = (text) => new TextEncoder().encode(text);
  const key = await subtleCrypto().importKey("raw", encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64url(await subtleCrypto().sign("HMAC", key, encode(clientSeed)));
}

/** A client seed drawn here: 128 random bits as 22 base64url characters (a valid seed). */
export function drawClientSeed() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return base64url(bytes);
}
