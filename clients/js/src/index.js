/**
 * Scoundrel Referee client: deal `deal-v1`, play `scoundrel-1` exactly as
 * the referee judges it, and submit runs to the HTTP API.
 *
 *     import { Game, replay, submitRun, waitForVerdict } from "./src/index.js";
 *     const game = await Game.start("abc");
 *     game.play(game.legalMoves()[0]);
 */

export { CANONICAL_ORDER, KIND, VALUE } from "./cards.js";
export { DEAL_VERSION, SEED_PATTERN, deal, isValidSeed } from "./deal.js";
export { MOVES, MoveType, parseMove } from "./moves.js";
export { CLASSIC, EASY, HARD, REJECTION_CODES, VARIANTS } from "./rules.js";
export { MAX_MOVES, submissionErrors } from "./submission.js";
export { ENGINE_VERSION, RULESET } from "./verdict.js";
export { Game, IllegalMoveError, MoveError, NotationError, replay } from "./game.js";
export {
  ApiError,
  MAX_BATCH,
  batchErrors,
  getRun,
  parseRetryAfter,
  registerPlayer,
  submitBatch,
  submitRun,
  waitForVerdict,
} from "./api.js";
