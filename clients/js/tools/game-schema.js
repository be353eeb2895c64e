// The game JSON of the service (`schemas.games.GameSchema`), as its OpenAPI document describes it:
// tests/data/game-schema.json, recorded from the service by tools/make_game_schema.py and held to it
// by tests/clients/test_game_schema.py. The fake server builds every game answer from this document
// rather than from a list of its own, so a field renamed in the service fails the JS tests until the
// fake and the client follow it.
import { readFileSync } from "node:fs";

const { Game: GAME } = JSON.parse(readFileSync(new URL("../../../tests/data/game-schema.json", import.meta.url), "utf8"));

/** The fields of a game answer, in the order the service sends them. */
export const GAME_FIELDS = Object.freeze(Object.keys(GAME.properties));

const fits = (value, { type, nullable, items }) => {
  if (value === null) return nullable === true;
  if (type === "array") return Array.isArray(value) && value.every((item) => fits(item, items));
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number";
  return typeof value === type;
};

/** What in `values` (field name -> value) does not fit the document: a missing or unknown field, a wrong type. */
export function gameProblems(values) {
  const problems = GAME_FIELDS.filter((field) => !Object.hasOwn(values, field)).map((field) => `${field} is missing`);
  for (const [field, value] of Object.entries(values)) {
    const property = GAME.properties[field];
    if (!property) problems.push(`${field} is not a field of the service's game`);
    else if (!fits(value, property)) problems.push(`${field} is ${JSON.stringify(value)}, not of type ${property.type}`);
  }
  return problems;
}

/** A game answer: `values` in the document's order; throws if they do not fit it (the fake has drifted). */
export function gameAnswer(values) {
  const problems = gameProblems(values);
  if (problems.length) throw new Error(`The fake's game does not fit the service's: ${problems.join("; ")}.`);
  return Object.fromEntries(GAME_FIELDS.map((field) => [field, values[field]]));
}
