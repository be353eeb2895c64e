// The game JSON is the service's (schemas.games.GameSchema): the fake server builds its game answers
// from the service's OpenAPI document (tools/game-schema.js, tests/data/game-schema.json), and the
// client reads no field that document lacks. A field renamed in the service, once the recorded
// document is written again, fails here until the fake and the client follow.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { DAILY, DealtGame, registerPlayer, startGame } from "../src/index.js";
import { GAME_FIELDS, gameAnswer, gameProblems } from "../tools/game-schema.js";
import { startFakeServer } from "../tools/fake-server.js";

let server;
let api;
let answers; // a free game in play, after a move, forfeited, and a sealed daily in play: as the fake sent them

before(async () => {
  server = await startFakeServer();
  api = { baseUrl: server.baseUrl, token: (await registerPlayer(server.baseUrl, "schema-reader")).token };
  const game = await startGame(api);
  await game.play(game.legalMoves()[0]);
  await game.forfeit();
  await startGame(api, { challenge: DAILY });
  answers = server.state.responses
    .filter(({ url, status }) => url.startsWith("/v1/games") && status < 300)
    .map(({ body }) => JSON.parse(body));
});
after(() => server.close());

test("every game answer of the fake has the service's fields, in its order, of its types", async () => {
  assert.equal(answers.length, 4);
  for (const answer of answers) {
    assert.deepEqual(Object.keys(answer), [...GAME_FIELDS]);
    assert.deepEqual(gameProblems(answer), []);
  }
});

test("a game that does not fit the service's document is refused: a renamed field, a wrong type", async () => {
  const [answer] = answers;
  const { cards_left: left, ...renamed } = answer;
  assert.deepEqual(gameProblems({ ...renamed, dungeon_count: left }), [
    "cards_left is missing",
    "dungeon_count is not a field of the service's game",
  ]);
  assert.deepEqual(gameProblems({ ...answer, health: "20" }), ['health is "20", not of type integer']);
  assert.throws(() => gameAnswer(renamed), /cards_left is missing/);
});

test("the client reads no field of a game answer that the service's document lacks", async () => {
  const read = new Set();
  for (const answer of answers) {
    const watched = new Proxy(answer, {
      get(target, field, receiver) {
        if (typeof field === "string") read.add(field);
        return Reflect.get(target, field, receiver);
      },
    });
    const game = new DealtGame(api, watched);
    for (const field of Object.keys(game.state)) assert.notEqual(game.state[field], undefined, field);
  }
  assert.ok(read.size > 0);
  assert.deepEqual([...read].filter((field) => !GAME_FIELDS.includes(field)), []);
});
