/**
 * Well-formed input: the checks of the service's submission schema
 * (`schemas/submission.py`), with its field names and messages, so a client
 * can catch an `invalid` submission before sending it.
 */

import { SEED_MESSAGE, isValidSeed } from "./deal.js";
import { MOVES } from "./moves.js";
import { CLASSIC, VARIANTS } from "./rules.js";

export const MAX_MOVES = 200; // RULES.md: a longer list is invalid input
export const MOVE_MESSAGE =
  "Not a move in the notation: use flee, H<v>, D<v>, or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2).";

const MISSING = "Missing data for required field.";
const NULL = "Field may not be null.";
const NOT_A_STRING = "Not a valid string.";
const FIELDS = ["seed", "moves", "variant"];

function seedErrors(seed) {
  if (seed === undefined) return [MISSING];
  if (seed === null) return [NULL];
  if (typeof seed !== "string") return [NOT_A_STRING];
  return isValidSeed(seed) ? null : [SEED_MESSAGE];
}

function movesErrors(moves) {
  if (moves === undefined) return [MISSING];
  if (moves === null) return [NULL];
  if (!Array.isArray(moves)) return ["Moves must be a list of move strings."];
  if (moves.length === 0) return ["Moves must hold at least one move."];
  if (moves.length > MAX_MOVES) {
    return [`At most ${MAX_MOVES} moves are allowed (a full game needs at most 44 plays plus avoids).`];
  }
  const byIndex = {};
  moves.forEach((move, index) => {
    if (typeof move !== "string") byIndex[index] = ["Not a string."];
    else if (!MOVES.has(move)) byIndex[index] = [MOVE_MESSAGE];
  });
  return Object.keys(byIndex).length ? byIndex : null;
}

function variantErrors(variant) {
  if (variant === undefined) return null; // defaults to classic
  if (variant === null) return [NULL];
  if (typeof variant !== "string") return [NOT_A_STRING];
  return VARIANTS.includes(variant) ? null : [`Must be one of: ${VARIANTS.join(", ")}.`];
}

/**
 * Field-level errors of a submission `{seed, moves, variant?}`, or null when
 * it is well-formed. Keys: `seed`, `moves` (a list of messages, or an object
 * of move index → messages), `variant`, an unknown field's own name, or
 * `_schema` when the submission is not an object at all. A field set to
 * `undefined` counts as missing, as it would be once sent as JSON.
 */
export function submissionErrors(run) {
  if (run === null || typeof run !== "object" || Array.isArray(run)) return { _schema: ["Invalid input type."] };
  const errors = {};
  const found = { seed: seedErrors(run.seed), moves: movesErrors(run.moves), variant: variantErrors(run.variant) };
  for (const field of FIELDS) if (found[field]) errors[field] = found[field];
  for (const field of Object.keys(run)) {
    if (!FIELDS.includes(field) && run[field] !== undefined) errors[field] = ["Unknown field."];
  }
  return Object.keys(errors).length ? errors : null;
}

/** The variant a well-formed submission is played in. */
export function variantOf(run) {
  return run.variant === undefined ? CLASSIC : run.variant;
}
