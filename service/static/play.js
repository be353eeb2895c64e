// The /play page: a dealt game played through the JS client (clients/js/src, served at /assets/client/).
//
// The referee commits to its seed for the player's next game (next-deal)
// before the player types a seed of their own or this browser draws one; it
// deals from both and lists the legal moves; each is a button. After the
// game the page shows the verdict, and once the seeds are revealed checks
// them against the commitment and replays the game (DealtGame#verifyCommitment).
// The player signs up here (play-player.js), or, where a studio embeds the
// page, is signed in by the studio's token (play-embed.js). The tournaments
// the player may play are offered beside the variants (play-tournaments.js). Once judged, the run's place in
// the public log is checked in this browser and shown (public-log.js).
import {
  ConflictError,
  DAILY,
  commitmentOf,
  dealtSeed,
  drawClientSeed,
  gamesInPlay,
  isValidSeed,
  nextDeal,
  resumeGame,
  sealedDaily,
  startGame,
  waitForVerdict,
} from "./client/index.js";
import { cardFace, cardName, kindOf, shortName, valueOf } from "./cards.js";
import { embedding, studioPanel } from "./play-embed.js";
import { confirmStep, explain, playerPanel, recall, remember } from "./play-player.js";
import { offerShare } from "./play-share.js";
import { followEvents } from "./play-live.js";
import { joinTournament, needsJoin, tournamentChoice } from "./play-tournaments.js";
import { showLogPlace } from "./public-log.js";
import { storedPlayer } from "./site.js";

const GAME_KEY = "scoundrel.play.game"; // {player, id}: the game to resume after a reload
const MAX_HEALTH = 20;
const CLOSING_SHOWN = 3600; // seconds before a sealed daily closes from which the page counts down
const $ = (id) => document.getElementById(id);

let player = null;
let game = null;
let busy = false;
let nextCommitment = null; // what next-deal showed: the game about to start must carry it
let closing = null; // the countdown of a sealed daily in play: {timer, closes (performance.now() ms)}

/** The API as the player signed in now uses it: the token is read at each request, as a studio's page may hand
 * over a fresh one for the same player during a game (play-embed.js). */
const api = () => {
  const who = player;
  return { baseUrl: window.location.origin, get token() { return who.token; } };
};
const cardOf = (move) => (move === "flee" ? null : move.replace(/[wb]$/, ""));

function say(message) {
  $("status").textContent = message;
}

function fail(message) {
  $("page-error").textContent = message;
  $("page-error").hidden = !message;
}

// ---- the table -------------------------------------------------------------

/** What a move's button says, with what it costs or brings. */
function moveLabel(move, state) {
  const card = cardOf(move);
  const value = valueOf(card);
  switch (kindOf(card)) {
    case "potion":
      return state.potionDrunk ? "Drink: no effect, a second potion in this room (R8)" : `Drink: up to +${value}`;
    case "weapon":
      return state.weapon ? `Equip, dropping ${shortName(state.weapon)}` : "Equip";
    default: {
      if (!move.endsWith("w")) return `Fight barehanded: −${value}`;
      const damage = Math.max(0, value - valueOf(state.weapon)); // R11
      return `Fight with ${shortName(state.weapon)}: ${damage ? `−${damage}` : "no damage"}`;
    }
  }
}

function moveButton(move, state, place) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `move ${move.endsWith("b") ? "barehanded" : ""}`.trim();
  button.dataset.move = move;
  button.textContent = moveLabel(move, state);
  const armedToo = move.endsWith("b") && state.legalMoves.includes(`${cardOf(move)}w`);
  button.setAttribute("aria-keyshortcuts", armedToo ? `Shift+${place}` : String(place));
  button.addEventListener("click", () => play(move));
  return button;
}

function roomCard(card, place, state) {
  const item = document.createElement("li");
  item.className = "room-card";
  item.append(cardFace(card));
  const moves = state.legalMoves.filter((move) => cardOf(move) === card);
  if (moves.length) {
    const group = document.createElement("div");
    group.className = "card-moves";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", `${place}: ${cardName(card)}`);
    group.append(...moves.map((move) => moveButton(move, state, place)));
    item.append(group);
  }
  return item;
}

function weaponText(state) {
  if (!state.weapon) return "None: monsters are fought barehanded.";
  if (!state.lastKill) return `${cardName(state.weapon)}, fresh: it may fight any monster.`;
  return `${cardName(state.weapon)}; its last kill ${shortName(state.lastKill)}: it fights only monsters below ` +
    `${valueOf(state.lastKill)} (R10).`;
}

function gameLabel(state) {
  const kind = state.tournament
    ? `tournament “${tournaments.title(state.tournament)}”${state.deal ? `, deal ${state.deal}` : ""}, ${state.variant}`
    : state.challenge === DAILY ? `sealed daily of ${state.date}` : state.variant;
  const count = state.moves.length;
  return `· ${kind} · ${count} ${count === 1 ? "move" : "moves"} played`;
}

function renderTable() {
  const state = game.state;
  $("game").hidden = false;
  $("game").dataset.moves = String(state.moves.length);
  $("game-label").textContent = gameLabel(state);
  $("health").textContent = String(state.health);
  const fill = $("health-fill");
  fill.style.width = `${(100 * Math.max(0, state.health)) / MAX_HEALTH}%`; // CSSOM: allowed by the CSP
  fill.className = `health-fill ${state.health > 12 ? "good" : state.health > 5 ? "low" : "critical"}`;
  $("weapon").replaceChildren(...(state.weapon ? [cardFace(state.weapon, "small")] : []));
  $("weapon-note").textContent = weaponText(state);
  $("cards-left").textContent = String(state.dungeonCount);
  $("room").replaceChildren(...state.room.map((card, i) => roomCard(card, i + 1, state)));
  $("avoid").hidden = !state.legalMoves.includes("flee");
  $("forfeit").hidden = state.over;
  $("forfeit-confirm").hidden = true;
  $("start").hidden = !state.over;
  countDown(state);
  if (state.over) {
    refreshNextDeal();
    tournaments.refresh(api()); // an attempt used
  }
}

/** A sealed daily in play in its day's last hour: the time left before it closes and is forfeited (R18).
 * Counted from the referee's closes_in, so this browser's clock does not matter. */
function countDown(state) {
  clearInterval(closing?.timer);
  closing = null;
  $("closing").hidden = true;
  if (state.over || state.closesIn === null || state.closesIn > CLOSING_SHOWN) return;
  closing = { closes: performance.now() + state.closesIn * 1000 };
  const tick = () => {
    const left = Math.max(0, Math.ceil((closing.closes - performance.now()) / 1000));
    const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    $("closing").textContent = left
      ? `This sealed daily closes in ${clock}, at the end of its UTC day: a game still in play then is forfeited (R18).`
      : "This sealed daily has closed: its day is over, and a game still in play is forfeited (R18).";
    $("closing").hidden = false;
    if (!left) clearInterval(closing.timer);
  };
  tick();
  closing.timer = setInterval(tick, 1000);
}

/** The buttons a keyboard player moves between, in order. */
const moveButtons = () => [...document.querySelectorAll("#room button, #avoid:not([hidden])")];

// ---- moves ------------------------------------------------------------------

/** What a move did, from the positions before and after it. */
function describe(move, before, after) {
  const card = cardOf(move);
  const parts = [];
  if (move === "flee") parts.push(`You avoided the room: ${before.room.map(shortName).join(" ")} go under the dungeon.`);
  else if (kindOf(card) === "potion") {
    const healed = after.health - before.health;
    parts.push(healed
      ? `You drank ${cardName(card)}: +${healed} health.`
      : before.potionDrunk
        ? `You drank ${cardName(card)}: no effect, as a second potion in a room heals nothing (R8).`
        : `You drank ${cardName(card)}: no effect, at full health (R3).`);
  } else if (kindOf(card) === "weapon") parts.push(`You equipped ${cardName(card)}.`);
  else {
    const how = move.endsWith("w") ? `with ${shortName(before.weapon)}` : "barehanded";
    const damage = before.health - after.health;
    parts.push(`You fought ${cardName(card)} ${how}: ${damage ? `−${damage} health` : "no damage"}.`);
  }
  if (after.dungeonCount < before.dungeonCount || move === "flee") {
    parts.push(`New room: ${after.room.map(shortName).join(" ")}.`);
  }
  parts.push(`Health ${after.health}.`);
  if (after.won) parts.push("You are through the dungeon: you won!");
  else if (after.lost) parts.push("You died.");
  return parts.join(" ");
}

/** Run one request on the game; then show it, keep the keyboard's place, and judge it if it ended. */
async function act(request, describeResult) {
  if (busy || !game) return;
  const place = moveButtons().indexOf(document.activeElement);
  const before = game.state;
  busy = true;
  $("game").setAttribute("aria-busy", "true");
  try {
    say(describeResult(before, await request()));
  } catch (error) {
    say(error.body?.reason === "sealed_day_over"
      ? error.body.message
      : error instanceof ConflictError
        ? "The game moved on elsewhere (another tab?): here it is as it stands."
        : explain(error));
  } finally {
    busy = false;
    $("game").removeAttribute("aria-busy");
  }
  renderTable();
  if (game.over) return finish(true);
  const after = moveButtons();
  if (place >= 0 && after.length) after[Math.min(place, after.length - 1)].focus();
}

const play = (move) => act(() => game.play(move), (before, after) => describe(move, before, after));

/** Keys 1–4 play the card in that place (Shift: a monster barehanded), A avoids; never while typing. */
function shortcut(event) {
  if (!game || game.over || event.ctrlKey || event.altKey || event.metaKey) return;
  if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
  const place = /^Digit([1-4])$/.exec(event.code)?.[1];
  let move = null;
  if (place) {
    const card = game.state.room[Number(place) - 1];
    const moves = game.state.legalMoves.filter((m) => cardOf(m) === card);
    const barehanded = moves.find((m) => m.endsWith("b"));
    move = (event.shiftKey && barehanded) || moves.find((m) => m.endsWith("w")) || moves[0] || null;
  } else if (event.code === "KeyA" && !event.shiftKey) {
    move = game.isLegal("flee") ? "flee" : null;
  }
  if (move === null) return;
  event.preventDefault();
  play(move);
}

// ---- the end ------------------------------------------------------------------

const OUTCOMES = {
  won: (state) => `You won with ${state.health} health.`,
  lost: (state) => `You died (health ${state.health}).`,
  forfeit: () => "You gave the game up: it scores as dying at once (R18).",
};

function check(ok, text) {
  const item = document.createElement("li");
  item.className = ok ? "ok" : "bad";
  item.textContent = `${ok ? "✓" : "✗"} ${text}`;
  return item;
}

function note(text) {
  const item = document.createElement("li");
  item.textContent = text;
  return item;
}

/**
 * How a verified run's score is made, in the words of the CLI's verdict line (cli/trace_table.py):
 * the health left when won (R15), the health at death less the monsters left when lost (R16), none of
 * the health and every monster not yet defeated when given up (R18).
 */
function scoreMade(run) {
  if (run.status !== "verified" || run.score === null || run.score === undefined) return "";
  const beyondHealth = run.score - run.health;
  if (run.outcome === "won") {
    return beyondHealth
      ? `= health ${run.health} + ${beyondHealth}, a potion drunk at full health as the last card (R15)`
      : `= health ${run.health} (R15)`;
  }
  if (run.outcome === "forfeit") {
    return `= 0 - ${-run.score}, the monsters not yet defeated, in the room and the dungeon: a game given up ` +
      "scores as dying at once (R18)";
  }
  return `= health ${run.health} - ${-beyondHealth}, the monsters left in the dungeon (R16)`;
}

function showRun(run) {
  $("verdict-score").textContent = run.score === null || run.score === undefined ? "none" : String(run.score);
  $("verdict-score-made").textContent = scoreMade(run);
  const code = run.error?.code ?? run.outcome;
  $("verdict-run").replaceChildren(`${run.status}${code ? " · " : ""}`);
  if (code) {
    const element = document.createElement("code");
    element.textContent = code;
    $("verdict-run").append(element);
  }
}

/** The commands that check a revealed deal without this page (docs/fair-play.md). */
function handCheck({ seed, serverSeed, clientSeed }) {
  if (!clientSeed) return `printf %s ${seed} | sha256sum gives the commitment.`;
  return `printf %s ${serverSeed} | sha256sum gives the commitment, and printf %s ${clientSeed} | openssl dgst ` +
    `-sha256 -hmac ${serverSeed} -binary | basenc --base64url | tr -d = gives the seed.`;
}

/** The verdict, the seed and the commitment; once the seed is revealed, the browser's own check of the deal. */
async function finish(focus) {
  const ended = game; // a new game may start while the referee judges this one: then this one says nothing more
  const state = ended.state;
  $("verdict").hidden = false;
  $("verdict-line").textContent = OUTCOMES[state.status](state);
  $("verdict-score").textContent = "waiting for the referee…";
  $("verdict-score-made").textContent = "";
  $("verdict-run").textContent = "…";
  $("verdict-commitment").textContent = state.commitment;
  $("verdict-seed").textContent = state.seed ?? (state.tournament
    ? "sealed until the tournament ends (R19)"
    : `sealed until the UTC day ${state.date} is over`);
  for (const row of document.querySelectorAll("#verdict .client-seeded")) row.hidden = !state.clientSeed;
  $("verdict-server-seed").textContent = state.serverSeed ?? "";
  $("verdict-client-seed").textContent = state.clientSeed ?? "";
  $("replay-link").href = `/runs/${encodeURIComponent(state.runId)}`;
  $("replay-link").textContent = state.seed === null
    ? `The replay (open once the ${state.tournament ? "tournament has ended" : "day is over"})`
    : "Watch the replay";
  $("checks").replaceChildren(note("Checking the deal…"));
  if (focus) $("verdict").focus();
  const { baseUrl, token } = api();
  // Without the seed, or without Web Crypto to hash it, the page shows the referee's verdict and says why it
  // cannot check the deal (yet).
  const sealed = state.tournament
    ? "The seed of the tournament's sealed deck is revealed once it has ended (R19): its page then lists it, and " +
      "this page, opened again within the 7 days the game is kept, checks the deal."
    : `The seed of the sealed daily is revealed once ${state.date} (UTC) is over: come back to this page then ` +
      "(the game is kept 7 days) and it checks the deal.";
  const unchecked = state.seed === null
    ? sealed
    : !window.crypto?.subtle
      ? "This browser gives the page no Web Crypto (only https and localhost pages have it), which the check " +
        `needs. Check it by hand: ${handCheck(state)}`
      : null;
  try {
    if (unchecked) {
      const run = await waitForVerdict(baseUrl, state.runId, { token });
      if (game !== ended) return;
      showRun(run);
      showLogPlace($("verdict-log"), state.runId, { run, current: () => game === ended });
      offerShare(state, run, () => game === ended);
      $("checks").replaceChildren(note(unchecked));
      return;
    }
    const result = await ended.verifyCommitment();
    if (game !== ended) return;
    showRun(result.run);
    showLogPlace($("verdict-log"), state.runId, { run: result.run, current: () => game === ended });
    offerShare(state, result.run, () => game === ended);
    const steps = state.clientSeed
      ? [
        check(result.serverSeed !== null && (await commitmentOf(result.serverSeed)) === state.commitment,
          "SHA-256 of the server seed is the commitment shown before your seed was chosen."),
        check(result.serverSeed !== null && (await dealtSeed(result.serverSeed, state.clientSeed)) === state.seed,
          "The seed is base64url(HMAC-SHA256(server seed, your seed)): the deck comes from both."),
      ]
      : [check(result.commitmentMatches, "SHA-256 of the seed is the commitment shown before the first card.")];
    $("checks").replaceChildren(
      ...steps,
      check(!result.mismatches.length, "The seed deals every room this page was shown."),
      check(result.verdictMatches, "This browser's replay of the moves gives the referee's verdict."),
      ...result.mismatches.map(({ moves, field, shown, dealt }) => check(false,
        `After ${moves} moves the referee showed ${field} ${JSON.stringify(shown)}; the seed deals ${JSON.stringify(dealt)}.`)),
      result.ok ? check(true, "The deal checks out.") : check(false, "The deal does NOT check out."),
    );
  } catch (error) {
    if (game === ended) $("checks").replaceChildren(note(explain(error)));
  }
}

// ---- starting and resuming ------------------------------------------------------

function show(dealt, message, { focus = true } = {}) {
  game = dealt;
  remember(GAME_KEY, { player: player.name, id: game.state.id });
  panel.rename(game.state.player);
  $("verdict").hidden = true;
  $("share").hidden = true;
  $("verdict-log").hidden = true;
  renderTable();
  say(message);
  if (game.over) return finish(focus);
  if (focus) moveButtons()[0]?.focus();
}

/** The commitment to the player's next deal, shown before they choose their seed. */
async function refreshNextDeal() {
  nextCommitment = null;
  $("next-commitment").textContent = "…";
  if (!player) return;
  try {
    nextCommitment = (await nextDeal(api(), player.name)).commitment;
    $("next-commitment").textContent = nextCommitment;
  } catch {
    $("next-commitment").textContent = "not available just now";
  }
}

/** The seed the player typed, or one this browser draws; null (and why, next to the field) if it is not a seed. */
function clientSeed() {
  const typed = $("client-seed").value.trim();
  $("client-seed-error").textContent = "";
  if (!typed) return drawClientSeed();
  if (isValidSeed(typed)) return typed;
  $("client-seed-error").textContent = "A seed is 1 to 64 characters from A–Z a–z 0–9 _ -.";
  return null;
}

/** What the game `options` start is called, and what the referee says when one of it is in play already. */
function gameName(options) {
  if (options.challenge) {
    return {
      dealt: "today's sealed daily",
      resumed: "You have started today's sealed daily already: one game per player and UTC day. Here it is.",
      oneOnly: "Today's sealed daily is one game per player: this is yours, as it stands.",
    };
  }
  const kind = options.tournament ? `“${tournaments.title(options.tournament)}”` : options.variant;
  return {
    dealt: options.tournament ? `a game of the tournament ${kind}` : `a ${kind} game`,
    resumed: `You have a ${kind} game in play: one at a time. Here it is; finish or forfeit it first.`,
    oneOnly: `One ${kind} game in play at a time: this is yours, as it stands.`,
  };
}

async function start(options) {
  if (busy || !player) return;
  const dealtAlone = options.challenge || options.tournament; // the referee deals these alone: no seed of the player's
  const seeded = dealtAlone ? options : { ...options, clientSeed: clientSeed() };
  if (seeded.clientSeed === null) return $("client-seed").focus();
  if (!dealtAlone && nextCommitment) seeded.commitment = nextCommitment;
  const name = gameName(options);
  busy = true;
  fail("");
  try {
    if (options.join) await joinTournament(api().token, options.tournament);
    const dealt = await startGame(api(), seeded);
    $("client-seed").value = "";
    const from = dealt.state.clientSeed ? ` from the committed deal and your seed ${dealt.state.clientSeed}` : "";
    show(dealt, `Dealt ${name.dealt}${from}. The room: ${dealt.state.room.map(shortName).join(" ")}. ` +
      `Health ${dealt.state.health}.`);
  } catch (error) {
    if (error instanceof ConflictError && error.gameId) {
      const first = await resumeGame(api(), error.gameId).catch(() => null);
      if (first) {
        show(first, name.resumed);
        fail(name.oneOnly);
        return;
      }
    }
    fail(explain(error));
    refreshNextDeal();
  } finally {
    busy = false;
  }
}

/**
 * Whether a game looked up for `who` may still be shown: the same player is signed in and no game was
 * dealt while the lookup ran (shown over it, the looked-up game would replace the one being played).
 */
const stillToResume = (who) => game === null && player === who;

/** The game this browser was playing before a reload, if it is still there. */
async function resume() {
  const who = player;
  const kept = recall(GAME_KEY);
  if (!kept || kept.player !== who.name) return resumeInPlay();
  try {
    const resumed = await resumeGame(api(), kept.id);
    if (stillToResume(who)) show(resumed, "Welcome back: the game as you left it.", { focus: false });
  } catch (error) {
    if (error.status === 404) remember(GAME_KEY, null); // over and gone (kept 7 days), or never this player's
    else fail(explain(error));
  }
}

/** Without a game kept in this browser: the player's game in play, if they have one (started elsewhere). */
async function resumeInPlay() {
  const who = player;
  try {
    const [playing] = await gamesInPlay(api(), who.name);
    if (playing && stillToResume(who)) show(playing, "Your game in play, as you left it.", { focus: false });
  } catch (error) {
    fail(explain(error));
  }
}

/** A player signed in (or out, `who` null): their game in play, if any, resumed; then `data-signed-in` says who. */
async function signedIn(who) {
  delete document.body.dataset.signedIn;
  player = who;
  live.follow(who && api(), who?.name);
  game = null;
  for (const id of ["game", "verdict"]) $(id).hidden = true;
  $("start").hidden = player === null;
  if (player === null) {
    remember(GAME_KEY, null);
    tournaments.refresh(null);
  } else await Promise.all([resume(), refreshNextDeal(), tournaments.refresh(api())]);
  if (player !== who) return;
  if (game === null) tournaments.wanted()?.focus(); // opened from a tournament's page: its Play in reach
  document.body.dataset.signedIn = who?.name ?? "";
}

const live = followEvents($("live"), $("live-events"));
const tournaments = tournamentChoice((tournament) =>
  start({ tournament: tournament.id, join: needsJoin(tournament) }));
const embedders = embedding(); // the origins that may have framed the page, if it is framed
const panel = embedders ? studioPanel(embedders, signedIn) : playerPanel(signedIn);

for (const button of document.querySelectorAll("#start [data-variant]")) {
  button.addEventListener("click", () => start({ variant: button.dataset.variant }));
}
document.querySelector("#start [data-challenge]").addEventListener("click", () => start({ challenge: DAILY }));
$("avoid").addEventListener("click", () => play("flee"));
$("client-seed-draw").addEventListener("click", () => {
  $("client-seed").value = drawClientSeed();
  $("client-seed-error").textContent = "";
});
$("client-seed-form").addEventListener("submit", (event) => event.preventDefault());
confirmStep("forfeit", () => act(() => game.forfeit(), () => "You gave the game up."));
document.addEventListener("keydown", shortcut);

sealedDaily({ baseUrl: window.location.origin })
  .then(({ commitment }) => ($("daily-commitment").textContent = commitment))
  .catch(() => ($("daily-commitment").textContent = "not available just now"));
if (embedders) {
  document.body.dataset.ready = "true";
  panel.ready(); // the page framing it answers with the studio's token
} else {
  signedIn(storedPlayer()).then(() => (document.body.dataset.ready = "true"));
}
