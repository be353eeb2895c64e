/**
 * The 44 cards of `scoundrel-1` and what each one is (R1).
 *
 * A card is named by its code: suit letter and value, `S2`…`S14`,
 * `C2`…`C14`, `D2`…`D10`, `H2`…`H10`.
 */

export const MONSTER = "monster";
export const WEAPON = "weapon";
export const POTION = "potion";

const SUIT_KIND = { S: MONSTER, C: MONSTER, D: WEAPON, H: POTION };

function suitRun(suit, high) {
  const cards = [];
  for (let value = 2; value <= high; value += 1) cards.push(`${suit}${value}`);
  return cards;
}

/** Canonical order (deal-v1): spades 2–14, clubs 2–14, diamonds 2–10, hearts 2–10. */
export const CANONICAL_ORDER = Object.freeze([
  ...suitRun("S", 14),
  ...suitRun("C", 14),
  ...suitRun("D", 10),
  ...suitRun("H", 10),
]);

/** Card code → value (2–14). */
export const VALUE = Object.freeze(Object.fromEntries(CANONICAL_ORDER.map((card) => [card, Number(card.slice(1))])));

/** Card code → "monster" | "weapon" | "potion". */
export const KIND = Object.freeze(Object.fromEntries(CANONICAL_ORDER.map((card) => [card, SUIT_KIND[card[0]]])));

/** The summed value of the monsters among `cards` (R16's penalty). */
export function monsterTotal(cards) {
  let total = 0;
  for (const card of cards) if (KIND[card] === MONSTER) total += VALUE[card];
  return total;
}
