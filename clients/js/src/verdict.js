/**
 * Verdicts: the one answer a replay gives, in the JSON shape of the Python
 * engine's `Verdict.to_dict()` and of the HTTP API.
 *
 * `engine` is the version of the Python engine whose verdicts this module
 * reproduces, generated from that engine (`engine.js`); the cross-check
 * fixture (tests/data/crosscheck.json) pins the two together.
 */

import { ENGINE_VERSION, RULESET } from "./engine.js";

export { ENGINE_VERSION, RULESET };

export const VERIFIED = "verified";
export const REJECTED = "rejected";
export const INVALID = "invalid";
export const WON = "won";
export const LOST = "lost";
export const FORFEIT = "forfeit"; // R18: a dealt game its player gave up, or left idle

/** `{status: "verified", outcome, score, health, moves, ruleset, engine}` */
export function verifiedVerdict(outcome, score, health, moves) {
  return { status: VERIFIED, outcome, score, health, moves, ruleset: RULESET, engine: ENGINE_VERSION };
}

/** `{status: "rejected", error: {code, move_index, message, ruling}, ruleset, engine}` */
export function rejectedVerdict(error) {
  return { status: REJECTED, error: { ...error }, ruleset: RULESET, engine: ENGINE_VERSION };
}

/** `{status: "invalid", errors: {field: [messages] | {index: [messages]}}}` */
export function invalidVerdict(errors) {
  return { status: INVALID, errors };
}

/** The error of a rejected run, as `RuleError.from_violation` words it. */
export function ruleError(violation, moveIndex) {
  return {
    code: violation.code,
    move_index: moveIndex,
    message: `Move ${moveIndex + 1}: ${violation.message}`,
    ruling: violation.ruling,
  };
}
