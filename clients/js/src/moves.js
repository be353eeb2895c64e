/**
 * Moves in the notation of RULES.md, parsed once into immutable values.
 *
 * Every legal notation is known in advance (71 strings), so parsing is one
 * table lookup and the engine never looks at a move string again.
 */

import { CANONICAL_ORDER, KIND, MONSTER, POTION, VALUE, WEAPON } from "./cards.js";

export const FLEE = "flee";

/** The five kinds of move. */
export const MoveType = Object.freeze({
  FLEE: "flee", // avoid the current room (R6, R7)
  DRINK: "drink", // drink a potion from the room (R8)
  EQUIP: "equip", // equip a weapon from the room (R9)
  FIGHT_WITH_WEAPON: "fightWithWeapon", // R10, R11
  FIGHT_BAREHANDED: "fightBarehanded", // R11
});

function move(type, card, notation) {
  return Object.freeze({ type, card, value: card === null ? null : VALUE[card], notation });
}

function notationTable() {
  const table = new Map([[FLEE, move(MoveType.FLEE, null, FLEE)]]);
  for (const card of CANONICAL_ORDER) {
    if (KIND[card] === MONSTER) {
      // R2: the fight mode is always explicit.
      table.set(`${card}w`, move(MoveType.FIGHT_WITH_WEAPON, card, `${card}w`));
      table.set(`${card}b`, move(MoveType.FIGHT_BAREHANDED, card, `${card}b`));
    } else if (KIND[card] === POTION) {
      table.set(card, move(MoveType.DRINK, card, card));
    } else if (KIND[card] === WEAPON) {
      table.set(card, move(MoveType.EQUIP, card, card));
    }
  }
  return table;
}

/** Notation → move, for all 71 strings of the notation. */
export const MOVES = notationTable();

/** The move a notation names, or null when it is not in the notation (R2). */
export function parseMove(notation) {
  if (typeof notation !== "string") return null;
  return MOVES.get(notation) ?? null;
}
