// The page's dealt game: the referee deals and shows only the room; the
// legal moves it lists are the buttons. At the end the page shows the
// verdict, the revealed seed and whether the deal checks out.
import { ApiError, ConflictError, MoveError, registerPlayer, resumeGame, startGame } from "../src/index.js";

const $ = (id) => document.getElementById(id);
let game = null;

function describe(error) {
  if (error instanceof MoveError) return `${error.code} (${error.ruling ?? "no ruling"}): ${error.message}`;
  if (!(error instanceof ApiError)) throw error;
  return `${error.status ?? ""} ${error.code}: ${error.message}` + (error.errors ? `\n${JSON.stringify(error.errors, null, 2)}` : "");
}

function show() {
  const state = game.state;
  const daily = state.challenge ? `, sealed daily of ${state.date}` : "";
  $("dealt-status").textContent =
    `Game ${state.id} (${state.variant}${daily}): ${state.status} after ${state.moves.length} moves. Health ${state.health}, ` +
    `weapon ${state.weapon ?? "none"}${state.lastKill ? ` (last kill ${state.lastKill})` : ""}, ` +
    `${state.dungeonCount} cards face down. Commitment ${state.commitment}.`;
  $("dealt-room").textContent = state.room.join(" ");
  $("dealt-moves").replaceChildren(
    ...state.legalMoves.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move;
      button.onclick = () => act(() => game.play(move));
      return button;
    }),
  );
  $("dealt-forfeit").hidden = state.over;
  $("dealt-forfeit").disabled = false;
  $("dealt-check").hidden = !state.over;
}

/** Run one request with the buttons disabled; show the game after it, and its error if any. */
async function act(request) {
  for (const button of document.querySelectorAll("#dealt-moves button, #dealt-forfeit")) button.disabled = true;
  $("dealt-verdict").textContent = "";
  try {
    await request();
    show();
    if (game.over) await check();
  } catch (error) {
    show();
    $("dealt-verdict").textContent = describe(error);
  }
}

/** The end: the verdict, the seed, and whether SHA-256(seed) is the commitment and the seed deals what was shown. */
async function check() {
  const { status, seed, date, id } = game.state;
  if (seed === null) {
    $("dealt-verdict").textContent =
      `${status}. The seed stays sealed until the UTC day ${date} is over: check again then (game ${id}).`;
    return;
  }
  $("dealt-verdict").textContent = `${status}. Checking the deal…`;
  const result = await game.verifyCommitment();
  const { run, verdict } = result;
  const lines = [
    `Verdict: ${run.status} ${run.outcome ?? ""}, score ${run.score}`,
    `Seed: ${seed}`,
    `Commitment: ${game.commitment}: SHA-256 of the seed ${result.commitmentMatches ? "matches" : "does NOT match"}`,
    `Local replay: ${verdict.outcome ?? verdict.status}, score ${verdict.score}: ${result.verdictMatches ? "agrees" : "DISAGREES"}`,
    ...result.mismatches.map(
      ({ moves, field, shown, dealt }) =>
        `After ${moves} moves the server showed ${field} ${JSON.stringify(shown)}, the seed deals ${JSON.stringify(dealt)}`,
    ),
    result.ok ? "The deal checks out." : "The deal does NOT check out.",
  ];
  $("dealt-verdict").textContent = lines.join("\n");
}

$("deal").onsubmit = async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const api = { baseUrl: form.get("baseUrl"), token: form.get("token") };
  $("dealt-verdict").textContent = "";
  try {
    if (!api.token && form.get("name")) {
      ({ token: api.token } = await registerPlayer(api.baseUrl, form.get("name")));
      event.target.elements.token.value = api.token;
      $("dealt-verdict").textContent = "Registered: keep the token, it is shown once.";
    }
    if (form.get("gameId")) game = await resumeGame(api, form.get("gameId"));
    else {
      const challenge = form.get("daily") ? "daily" : undefined;
      game = await startGame(api, { variant: form.get("variant"), challenge }).catch((error) => {
        if (!(error instanceof ConflictError && error.gameId)) throw error;
        return resumeGame(api, error.gameId); // today's sealed daily, started before: play on
      });
    }
    show();
    if (game.over) await check();
  } catch (error) {
    $("dealt-status").textContent = describe(error);
  }
};

$("dealt-forfeit").onclick = () => act(() => game.forfeit());
$("dealt-check").onclick = () => act(() => game.refresh());
