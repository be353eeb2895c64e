// The page's open seed: deal it here, play by clicking legal moves, submit the run.
import { ApiError, Game, submitRun, waitForVerdict } from "../src/index.js";

const $ = (id) => document.getElementById(id);
let game = null;

function show() {
  $("status").textContent = `Health ${game.health}, weapon ${game.weapon ?? "none"}` +
    `${game.lastKill ? ` (last kill ${game.lastKill})` : ""}, ${game.dungeonCount} cards in the dungeon`;
  $("room").textContent = game.room.join(" ");
  $("moves").replaceChildren(...game.legalMoves().map((move) => {
    const button = document.createElement("button");
    button.textContent = move;
    button.onclick = () => { game.play(move); show(); };
    return button;
  }));
  if (game.over) $("verdict").textContent = JSON.stringify(game.verdict(), null, 2);
  $("submit").hidden = !game.over;
}

$("start").onsubmit = async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  $("verdict").textContent = "";
  try {
    game = await Game.start(form.get("seed"), form.get("variant"));
    show();
  } catch (error) {
    $("status").textContent = error.message;
  }
};

$("submit").onsubmit = async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const { run } = await submitRun(form.get("baseUrl"), form.get("token"), game.toSubmission());
    const judged = await waitForVerdict(form.get("baseUrl"), run.id);
    $("verdict").textContent = JSON.stringify(judged, null, 2);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    $("verdict").textContent = `${error.status ?? ""} ${error.code}: ${error.message}` +
      (error.errors ? `\n${JSON.stringify(error.errors, null, 2)}` : "") +
      (error.retryAfter !== null ? `\nretry after ${error.retryAfter} s` : "");
  }
};

$("start").requestSubmit();
