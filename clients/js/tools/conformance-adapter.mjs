#!/usr/bin/env node
/**
 * The JS client's engine behind the conformance protocol (docs/conformance.md):
 *
 *     scoundrel conformance --engine "node clients/js/tools/conformance-adapter.mjs"
 *
 * One JSON request a line on stdin ({case, seed, variant, moves, forfeit}),
 * one JSON answer a line on stdout ({case, states}, with forfeit_score when
 * asked, illegal when the engine refuses a move, code not_in_notation for a
 * string that is no move). The answers come from the
 * published client's own rules, so the check is of the code players run.
 */

import { createInterface } from "node:readline";

import { deal } from "../src/deal.js";
import { parseMove } from "../src/moves.js";
import { RuleViolation, apply, forfeitScore, isOver, legalMoves, score, start } from "../src/rules.js";

function stateView(state, variant) {
  const over = isOver(state);
  return {
    legal: over ? [] : legalMoves(state, variant).sort(),
    health: state.health,
    weapon: state.weapon,
    last_kill: state.kills.length ? state.kills[state.kills.length - 1] : null,
    room: [...state.room],
    dungeon: state.dungeon.length,
    over,
    score: over ? score(state) : null,
  };
}

async function answer(request) {
  const state = start(await deal(request.seed));
  const states = [stateView(state, request.variant)];
  const reply = { case: request.case, states };
  for (const [index, notation] of request.moves.entries()) {
    const move = parseMove(notation);
    if (move === null) {
      reply.illegal = { index, code: "not_in_notation" };
      return reply;
    }
    try {
      apply(state, move, request.variant);
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      reply.illegal = { index, code: error.violation.code };
      return reply;
    }
    states.push(stateView(state, request.variant));
  }
  if (request.forfeit) reply.forfeit_score = forfeitScore(state);
  return reply;
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) process.stdout.write(`${JSON.stringify(await answer(JSON.parse(line)))}\n`);
}
