/**
 * The rulings of `scoundrel-1`: legality in one place, then the effect.
 *
 * A line-by-line port of the Python engine (`scoundrel/rules.py`,
 * `scoundrel/state.py`): `check` decides whether a move is legal before
 * anything changes and answers with a violation (code, ruling, message);
 * `apply` changes the state and reports the effect. Messages are the
 * engine's own, word for word, so a client shows what the referee will say.
 */

import { VALUE, monsterTotal } from "./cards.js";
import { MOVES, MoveType } from "./moves.js";

export const CLASSIC = "classic";
export const EASY = "easy";
export const HARD = "hard";
export const VARIANTS = Object.freeze([CLASSIC, EASY, HARD]); // R14

export const CARD_NOT_IN_ROOM = "card_not_in_room";
export const WEAPON_NOT_USABLE = "weapon_not_usable";
export const FLEE_NOT_ALLOWED = "flee_not_allowed";
export const MOVE_AFTER_GAME_OVER = "move_after_game_over";
export const INCOMPLETE = "incomplete";
export const REJECTION_CODES = Object.freeze([
  CARD_NOT_IN_ROOM,
  WEAPON_NOT_USABLE,
  FLEE_NOT_ALLOWED,
  MOVE_AFTER_GAME_OVER,
  INCOMPLETE,
]);

export const START_HEALTH = 20; // R3
export const MAX_HEALTH = 20; // R3
export const ROOM_SIZE = 4; // R4

/**
 * The position of a game as plain data. `room` is in R4 order (carried-over
 * card first); `dungeon` is the face-down pile, top first.
 */
export function newState(dungeon) {
  return {
    room: [],
    dungeon: [...dungeon],
    health: START_HEALTH,
    weapon: null,
    kills: [], // by the equipped weapon, oldest first (R9, R10)
    playedInRoom: 0, // cards played since the room was dealt (R4, R6)
    potionDrunk: false, // a potion already healed in this room (R8)
    avoidedLast: false, // the previous room was avoided, no card played since (R6)
    bonus: 0, // R15: the last card was a potion drunk at full health; its value
  };
}

export function copyState(state) {
  return { ...state, room: [...state.room], dungeon: [...state.dungeon], kills: [...state.kills] };
}

/** R12: health at 0 or below ends the game. */
export const isLost = (state) => state.health <= 0;
/** R13: dungeon and room empty with health above 0. */
export const isWon = (state) => state.health > 0 && state.room.length === 0 && state.dungeon.length === 0;
export const isOver = (state) => isLost(state) || isWon(state);
/** R5: the room was dealt with fewer than 4 cards; all of them must be played. */
const isShortRoom = (state) => state.room.length + state.playedInRoom < ROOM_SIZE;

/** The classic score of a finished game (R15 for a win, R16 for a loss). */
export function score(state) {
  if (isLost(state)) return state.health - monsterTotal(state.dungeon);
  return state.health + state.bonus;
}

/** R18: a forfeit scores as dying at once, 0 minus every monster not yet defeated (room and dungeon). */
export function forfeitScore(state) {
  return -monsterTotal([...state.room, ...state.dungeon]);
}

function violation(code, ruling, message) {
  return { code, ruling, message };
}

function roomText(state) {
  return state.room.length ? state.room.join(", ") : "no cards";
}

function fleeViolation(state, variant) {
  if (variant === HARD) {
    return violation(FLEE_NOT_ALLOWED, "R14", "Avoiding a room is never allowed in the hard variant (R14).");
  }
  if (state.playedInRoom) {
    return violation(FLEE_NOT_ALLOWED, "R6", "A room can only be avoided before any of its cards is played (R6).");
  }
  if (state.room.length !== ROOM_SIZE) {
    return violation(
      FLEE_NOT_ALLOWED,
      "R6",
      `Only a room of 4 cards can be avoided; this one holds ${state.room.length} (R6).`,
    );
  }
  if (variant === CLASSIC && state.avoidedLast) {
    return violation(
      FLEE_NOT_ALLOWED,
      "R6",
      "The previous room was avoided, so this one must be faced: no two avoids in a row (R6).",
    );
  }
  return null;
}

function weaponViolation(state, move) {
  if (state.weapon === null) {
    return violation(
      WEAPON_NOT_USABLE,
      "R11",
      `No weapon is equipped, so ${move.card} can only be fought barehanded (R11).`,
    );
  }
  const lastKill = state.kills.length ? state.kills[state.kills.length - 1] : null;
  if (lastKill !== null && move.value >= VALUE[lastKill]) {
    return violation(
      WEAPON_NOT_USABLE,
      "R10",
      `The weapon ${state.weapon} last killed ${lastKill}, so it may only fight monsters weaker than ` +
        `${VALUE[lastKill]}; ${move.card} must be fought barehanded (R10).`,
    );
  }
  return null;
}

/** Why `move` is illegal in `state` ({code, ruling, message}), or null when it is legal. */
export function check(state, move, variant = CLASSIC) {
  if (state.health <= 0) {
    return violation(MOVE_AFTER_GAME_OVER, "R12", "The game was already lost; no move may follow (R12).");
  }
  if (state.room.length === 0 && state.dungeon.length === 0) {
    return violation(MOVE_AFTER_GAME_OVER, "R13", "The game was already won; no move may follow (R13).");
  }
  if (move.type === MoveType.FLEE) return fleeViolation(state, variant);
  if (!state.room.includes(move.card)) {
    return violation(
      CARD_NOT_IN_ROOM,
      "R4",
      `${move.card} is not in the room; the room holds ${roomText(state)} (R4).`,
    );
  }
  if (move.type === MoveType.FIGHT_WITH_WEAPON) return weaponViolation(state, move);
  return null;
}

/** Fill the room from the top of the dungeon up to 4 cards (R4, R5) and open it (R8). */
function dealRoom(state) {
  const drawn = [];
  while (state.room.length < ROOM_SIZE && state.dungeon.length) {
    const card = state.dungeon.shift();
    state.room.push(card);
    drawn.push(card);
  }
  state.playedInRoom = 0;
  state.potionDrunk = false;
  return drawn;
}

/** The opening position: the first room dealt from `dungeon` (top first). */
export function start(dungeon) {
  const state = newState(dungeon);
  dealRoom(state);
  return state;
}

function effect(fields) {
  return {
    damage: 0, // health lost in a fight (R11)
    healed: 0, // health restored by a potion (R8)
    wasted: 0, // potion value that restored nothing (R8)
    equipped: null, // the weapon just equipped (R9)
    discarded: [], // the old weapon and its kills, discarded by R9
    killed: null, // the monster recorded as the weapon's last kill (R10, R11)
    avoided: [], // the room sent to the bottom of the dungeon (R7)
    dealt: [], // cards drawn into a new room after this move (R4, R5)
    ...fields,
  };
}

function flee(state) {
  // R7: all four cards to the bottom, in room order; then a new room.
  const avoided = [...state.room];
  state.dungeon.push(...avoided);
  state.room.length = 0;
  const dealt = dealRoom(state);
  state.avoidedLast = true;
  return effect({ avoided, dealt });
}

function drink(state, move) {
  // R15: the bonus stands only if this potion stays the last card played.
  state.bonus = state.health === MAX_HEALTH ? move.value : 0;
  if (state.potionDrunk) return effect({ wasted: move.value }); // R8: a further potion has no effect
  state.potionDrunk = true;
  const healed = Math.min(MAX_HEALTH, state.health + move.value) - state.health;
  state.health += healed;
  return effect({ healed, wasted: move.value - healed });
}

function equip(state, move) {
  // R9: always replaces the weapon, discarding it with every monster it killed.
  const discarded = state.weapon ? [state.weapon, ...state.kills] : [];
  state.weapon = move.card;
  state.kills = [];
  state.bonus = 0;
  return effect({ equipped: move.card, discarded });
}

function fightWithWeapon(state, move) {
  // R11: the weapon absorbs its value; the monster becomes its last kill (R10).
  const damage = Math.max(0, move.value - VALUE[state.weapon]);
  state.kills.push(move.card);
  state.health -= damage;
  state.bonus = 0;
  return effect({ damage, killed: move.card });
}

function fightBarehanded(state, move) {
  state.health -= move.value; // R11: the full value
  state.bonus = 0;
  return effect({ damage: move.value });
}

const PLAY = {
  [MoveType.DRINK]: drink,
  [MoveType.EQUIP]: equip,
  [MoveType.FIGHT_WITH_WEAPON]: fightWithWeapon,
  [MoveType.FIGHT_BAREHANDED]: fightBarehanded,
};

/** Raised by `apply` for a move that `check` rejects; carries the violation. */
export class RuleViolation extends Error {
  constructor(found) {
    super(found.message);
    this.name = "RuleViolation";
    this.violation = found;
  }
}

/**
 * Apply a legal move to `state` in place and say what it did.
 *
 * Throws RuleViolation (and leaves the state untouched) for an illegal one.
 */
export function apply(state, move, variant = CLASSIC) {
  const found = check(state, move, variant);
  if (found !== null) throw new RuleViolation(found);
  if (move.type === MoveType.FLEE) return flee(state);
  const done = PLAY[move.type](state, move);
  state.room.splice(state.room.indexOf(move.card), 1);
  state.playedInRoom += 1;
  state.avoidedLast = false; // R6: playing a card clears the no-second-avoid restriction
  if (state.health <= 0) return done; // R12: the game is over; no new room is dealt
  // R4: three of four played, the last card stays and a new room is filled;
  // R5: a short room is played out completely before the next one.
  if (state.room.length === 0 || (state.room.length === 1 && !isShortRoom(state))) {
    const dealt = dealRoom(state);
    if (dealt.length) return { ...done, dealt };
  }
  return done;
}

/** Every legal move of `state` in notation, in room order, `flee` last. */
export function legalMoves(state, variant = CLASSIC) {
  const candidates = [];
  for (const card of state.room) {
    if (card[0] === "S" || card[0] === "C") candidates.push(`${card}w`, `${card}b`);
    else candidates.push(card);
  }
  candidates.push("flee");
  return candidates.filter((notation) => check(state, MOVES.get(notation), variant) === null);
}

/**
 * The equipped weapon and its kills after the legal `moves`, from the moves
 * alone: equipping discards the old weapon and its kills (R9), a fight with
 * the weapon makes the monster its last kill (R10). A dealt game's client
 * knows its moves but not the deck, and this is all it takes to name them.
 */
export function armsAfter(moves) {
  let weapon = null;
  let kills = [];
  for (const notation of moves) {
    const move = MOVES.get(notation);
    if (move.type === MoveType.EQUIP) {
      weapon = move.card;
      kills = [];
    } else if (move.type === MoveType.FIGHT_WITH_WEAPON) {
      kills.push(move.card);
    }
  }
  return { weapon, kills };
}

/**
 * Whether a potion was played in the room the legal `moves` leave, so that
 * a further one there has no effect (R8), from the moves alone: a room is
 * dealt at the start, after an avoid, and after every third card played in
 * it (R4; R5's short room holds at most three), so the room's plays are the
 * last moves since the last avoid, fewer than three of them.
 */
export function potionDrunkAfter(moves) {
  const sinceAvoid = moves.slice(moves.lastIndexOf("flee") + 1);
  const inRoom = sinceAvoid.slice(sinceAvoid.length - (sinceAvoid.length % 3));
  return inRoom.some((notation) => MOVES.get(notation).type === MoveType.DRINK);
}
