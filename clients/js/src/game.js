/**
 * A game in progress, and the replay of a whole submission.
 *
 * `Game` is what a web client plays on: it deals the dungeon the referee
 * will deal, refuses an illegal move before anything changes, and gives the
 * verdict the referee would give. `replay` judges a finished move list in
 * one call, as the service's workers do.
 */

import { deal } from "./deal.js";
import { parseMove } from "./moves.js";
import {
  CLASSIC,
  INCOMPLETE,
  RuleViolation,
  VARIANTS,
  apply,
  check,
  copyState,
  forfeitScore,
  isLost,
  isOver,
  isWon,
  legalMoves,
  score,
  start,
} from "./rules.js";
import { submissionErrors, variantOf } from "./submission.js";
import { FORFEIT, LOST, WON, invalidVerdict, rejectedVerdict, ruleError, verifiedVerdict } from "./verdict.js";

/** A game's status until it is over (then "won", "lost", or for a dealt game "forfeit"). */
export const PLAYING = "playing";

/** A move that `Game.play` refuses; the game is left as it was. */
export class MoveError extends Error {
  constructor(message, { code, ruling, moveIndex, move, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "MoveError";
    this.code = code;
    this.ruling = ruling;
    this.moveIndex = moveIndex;
    this.move = move;
  }
}

/**
 * A well-formed move the rules forbid. `code` is one of the rejection codes
 * (`card_not_in_room`, `weapon_not_usable`, `flee_not_allowed`,
 * `move_after_game_over`), `ruling` the RULES.md id, `message` the referee's
 * own words ("Move 7: …"). A dealt game's move refused by the server has
 * the ApiError of that answer as `cause`, and may also be `room_not_dealt`
 * (a move after one that deals new cards, in the same request) or
 * `too_many_moves` (past RULES.md's 200), neither with a ruling.
 */
export class IllegalMoveError extends MoveError {
  constructor(error, move, { cause } = {}) {
    super(error.message, { code: error.code, ruling: error.ruling, moveIndex: error.move_index, move, cause });
    this.name = "IllegalMoveError";
  }

  /** The `error` object of the rejected verdict this move would earn. */
  toJSON() {
    return { code: this.code, move_index: this.moveIndex, message: this.message, ruling: this.ruling };
  }
}

/** A string outside the notation (R2): code `invalid_notation`; a submission holding it is `invalid`. */
export class NotationError extends MoveError {
  constructor(move, moveIndex) {
    super(
      `Move ${moveIndex + 1}: ${JSON.stringify(move)} is not a move in the notation: use flee, H<v>, D<v>, ` +
        "or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2).",
      { code: "invalid_notation", ruling: "R2", moveIndex, move },
    );
    this.name = "NotationError";
  }
}

function finished(state, count, forfeit) {
  if (isLost(state)) return verifiedVerdict(LOST, score(state), state.health, count);
  if (isWon(state)) return verifiedVerdict(WON, score(state), state.health, count);
  // R18: only a game not yet over can be forfeited; a finished one keeps its outcome.
  if (forfeit) return verifiedVerdict(FORFEIT, forfeitScore(state), state.health, count);
  return rejectedVerdict({
    code: INCOMPLETE,
    move_index: count,
    message:
      `The move list ends after ${count} move${count === 1 ? "" : "s"} but the game is not over; ` +
      "an unfinished game is never scored (R17).",
    ruling: "R17",
  });
}

function checkVariant(variant) {
  if (!VARIANTS.includes(variant)) {
    throw new TypeError(`unknown variant ${JSON.stringify(variant)}; one of ${VARIANTS.join(", ")}`);
  }
}

export class Game {
  #state;
  #moves = [];

  /**
   * Deal the dungeon for `seed` and open the first room.
   * Rejects with a TypeError for an invalid seed or an unknown variant.
   * @param {string} seed
   * @param {"classic"|"easy"|"hard"} [variant]
   * @returns {Promise<Game>}
   */
  static async start(seed, variant = CLASSIC) {
    checkVariant(variant);
    return new Game(seed, variant, await deal(seed));
  }

  /** Use `Game.start`; the constructor takes a dungeon already dealt for `seed`. */
  constructor(seed, variant, dungeon) {
    checkVariant(variant);
    this.seed = seed;
    this.variant = variant;
    this.#state = start(dungeon);
  }

  /**
   * Play one move in notation and return its effect
   * `{damage, healed, wasted, equipped, discarded, killed, avoided, dealt}`.
   * Throws NotationError or IllegalMoveError and changes nothing.
   */
  play(notation) {
    const index = this.#moves.length;
    const move = parseMove(notation);
    if (move === null) throw new NotationError(notation, index);
    try {
      const done = apply(this.#state, move, this.variant);
      this.#moves.push(notation);
      return done;
    } catch (error) {
      if (error instanceof RuleViolation) throw new IllegalMoveError(ruleError(error.violation, index), notation);
      throw error;
    }
  }

  /** Every legal move now, in room order, `flee` last (empty once the game is over). */
  legalMoves() {
    return legalMoves(this.#state, this.variant);
  }

  isLegal(notation) {
    const move = parseMove(notation);
    return move !== null && check(this.#state, move, this.variant) === null;
  }

  /**
   * The verdict the referee would give for the moves played so far; with
   * `forfeit`, for a dealt game given up after them (R18: an unfinished game
   * is verified with outcome `forfeit` instead of rejected as incomplete; a
   * finished one keeps its outcome).
   */
  verdict({ forfeit = false } = {}) {
    return finished(this.#state, this.#moves.length, forfeit);
  }

  /** `{seed, moves, variant}`, ready for `submitRun`. */
  toSubmission() {
    return { seed: this.seed, moves: [...this.#moves], variant: this.variant };
  }

  /**
   * The position as the player sees it, in the shape of a dealt game's
   * `state`: `{variant, status ("playing", "won", "lost"), room, health,
   * weapon, kills, lastKill, dungeonCount, moves, legalMoves, over, won,
   * lost, score}`, a frozen copy.
   */
  get state() {
    return Object.freeze({
      variant: this.variant,
      status: this.won ? WON : this.lost ? LOST : PLAYING,
      room: this.room,
      health: this.health,
      weapon: this.weapon,
      kills: this.kills,
      lastKill: this.lastKill,
      dungeonCount: this.dungeonCount,
      moves: this.moves,
      legalMoves: this.legalMoves(),
      over: this.over,
      won: this.won,
      lost: this.lost,
      score: this.score,
    });
  }

  /** A copy of the whole position (room, dungeon, health, weapon, kills, …). */
  snapshot() {
    return copyState(this.#state);
  }

  get moves() {
    return [...this.#moves];
  }
  get health() {
    return this.#state.health;
  }
  /** The equipped weapon's card, or null. */
  get weapon() {
    return this.#state.weapon;
  }
  /** The monsters the equipped weapon killed, oldest first (R10). */
  get kills() {
    return [...this.#state.kills];
  }
  get lastKill() {
    const kills = this.#state.kills;
    return kills.length ? kills[kills.length - 1] : null;
  }
  /** The room in R4 order: the carried-over card first. */
  get room() {
    return [...this.#state.room];
  }
  /** Cards left face down in the dungeon. */
  get dungeonCount() {
    return this.#state.dungeon.length;
  }
  get over() {
    return isOver(this.#state);
  }
  get won() {
    return isWon(this.#state);
  }
  get lost() {
    return isLost(this.#state);
  }
  /** The score of a finished game (R15, R16), null while it is still going. */
  get score() {
    return isOver(this.#state) ? score(this.#state) : null;
  }
}

/**
 * Replay `moves` on the dungeon dealt from `seed` and judge the game, as the
 * referee does. Resolves to a verdict object: `verified`, `rejected` (with
 * `incomplete` at move_index = moves.length for an unfinished game) or, for
 * malformed input, `invalid` with the service schema's field errors. It never
 * throws for bad input. A submission is never a forfeit (R18): a dealt game
 * given up is judged by `Game#verdict({forfeit: true})`.
 */
export async function replay(seed, moves, variant = CLASSIC) {
  const run = { seed, moves, variant };
  const errors = submissionErrors(run);
  if (errors) return invalidVerdict(errors);
  const game = await Game.start(seed, variantOf(run));
  for (const notation of moves) {
    try {
      game.play(notation);
    } catch (error) {
      if (error instanceof IllegalMoveError) return rejectedVerdict(error.toJSON());
      throw error;
    }
  }
  return game.verdict();
}
