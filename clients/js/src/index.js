/**
 * Scoundrel Referee client: deal `deal-v1`, play `scoundrel-1` exactly as
 * the referee judges it, submit runs to the HTTP API, and play the games the
 * referee deals; check that a run's verdict is in the referee's public log.
 *
 *     import { Game, replay, startGame, submitRun, waitForVerdict } from "./src/index.js";
 *     const game = await Game.start("abc");
 *     game.play(game.legalMoves()[0]);
 *     const dealt = await startGame({ baseUrl, token }, { variant: "classic" });
 *     await dealt.play(dealt.legalMoves()[0]);
 */

export { CANONICAL_ORDER, KIND, VALUE } from "./cards.js";
export { DEAL_VERSION, SEED_PATTERN, deal, isValidSeed } from "./deal.js";
export { MOVES, MoveType, parseMove } from "./moves.js";
export { CLASSIC, EASY, HARD, REJECTION_CODES, VARIANTS } from "./rules.js";
export { MAX_MOVES, submissionErrors } from "./submission.js";
export { ENGINE_VERSION, FORFEIT, RULESET } from "./verdict.js";
export { Game, IllegalMoveError, MoveError, NotationError, PLAYING, replay } from "./game.js";
export { commitmentOf, dealtSeed, drawClientSeed } from "./commitment.js";
export { DAILY, DealtGame, gamesInPlay, nextDeal, resumeGame, sealedDaily, startGame } from "./dealt.js";
export {
  ApiError,
  ConflictError,
  MAX_BATCH,
  RETRY,
  batchErrors,
  erasePlayer,
  exportPlayer,
  getRun,
  parseRetryAfter,
  registerPlayer,
  submitBatch,
  submitRun,
  waitForVerdict,
} from "./api.js";
export {
  ED25519,
  LogCheckError,
  MAX_SIGNATURES,
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
} from "./transparency.js";
export { events } from "./events.js";
