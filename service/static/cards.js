// Cards for people, on /play and in the replay viewer: a card's name in words and its face drawn in CSS
// (no images, no inline style; viewer.css draws them).

const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const SUIT_NAMES = { S: "spades", C: "clubs", D: "diamonds", H: "hearts" };
const KINDS = { S: "monster", C: "monster", D: "weapon", H: "potion" };
const FACES = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const FACE_NAMES = { 11: "Jack", 12: "Queen", 13: "King", 14: "Ace" };

export const valueOf = (card) => Number(card.slice(1));
export const kindOf = (card) => KINDS[card[0]];

/** "♠9", "♥Q": the short name shown in text. */
export function shortName(card) {
  const value = valueOf(card);
  return `${SUITS[card[0]]}${FACES[value] ?? value}`;
}

/** "Queen of clubs (monster 12)": what a screen reader says for a card. */
export function cardName(card) {
  const value = valueOf(card);
  return `${FACE_NAMES[value] ?? value} of ${SUIT_NAMES[card[0]]} (${kindOf(card)} ${value})`;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/** A card's face: corners and a pip, one accessible image named in words. */
export function cardFace(card, extraClass = "") {
  const face = document.createElement("div");
  const red = card[0] === "D" || card[0] === "H";
  face.className = `card face ${red ? "red" : "black"} ${kindOf(card)} ${extraClass}`.trim();
  face.dataset.card = card;
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", cardName(card));
  face.title = cardName(card);
  const rank = FACES[valueOf(card)] ?? String(valueOf(card));
  for (const corner of ["top", "bottom"]) {
    const mark = span(`corner ${corner}`, rank);
    mark.append(document.createElement("br"), SUITS[card[0]]);
    face.append(mark);
  }
  face.append(span("pip", SUITS[card[0]]));
  return face;
}
