// Tournaments from a player's side: the ones they may play now, offered on /play, and joining one (/play and
// a tournament's page). A tournament's list (GET /v1/tournaments) holds no caller's entry, so each running
// one is read again with the player's token for theirs (`you`: joined, attempts left). A tournament's page
// links to /play?tournament=<id>: that one comes first, or the page says why it cannot be played now.
import { endpoint, request } from "./client/api.js";

const $ = (id) => document.getElementById(id);
const LISTED = 20; // the running tournaments /play looks at, ending soonest first

const tournamentPath = (id) => `/v1/tournaments/${encodeURIComponent(id)}`;

/** The tournament `id` with the entry in it of the player whose `token` it is (`you`). */
export async function tournamentFor(token, id) {
  return (await request(endpoint(window.location.origin, tournamentPath(id)), { token })).body;
}

/** Join tournament `id` as the player whose `token` it is; resolves to false if they had joined already. */
export async function joinTournament(token, id) {
  const answer = await request(endpoint(window.location.origin, `${tournamentPath(id)}/join`), { method: "POST", token });
  return answer.body.joined;
}

/** Whether `tournament` (read with a player's token) takes their join first: it needs one they have not made. */
export const needsJoin = (tournament) => tournament.join_required && !tournament.you.joined;

/** Why the player cannot play `tournament` now (docs/tournaments.md's refusals, before they happen), or null. */
export function unplayable(tournament) {
  const { state, you, entrants, max_entrants: cap } = tournament;
  if (state === "upcoming") return "It has not started yet: its page counts down to the start.";
  if (state === "ended") return "It has ended: its page shows the standings.";
  if (you.attempts_left === 0) return "You have played every attempt it allows.";
  if (!you.joined && cap !== null && entrants >= cap) return `It is full: ${cap} entrants have joined.`;
  return null;
}

const plural = (count, noun) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** One tournament in the list: a button that plays it, or why it cannot be played. */
function choice(tournament, onPick) {
  const item = document.createElement("li");
  const why = unplayable(tournament);
  const link = document.createElement("a");
  link.href = tournament.page;
  link.textContent = tournament.title;
  const about = document.createElement("span");
  about.className = "hint";
  if (why) {
    about.textContent = ` ${why}`;
    item.append(link, about);
    return item;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.tournament = tournament.id;
  button.textContent = needsJoin(tournament) ? "Join and play" : "Play";
  button.addEventListener("click", () => onPick(tournament));
  about.textContent = ` ${tournament.variant}, ${plural(tournament.you.attempts_left, "attempt")} left, ends ` +
    `${tournament.ends_at.slice(0, 16).replace("T", " ")} UTC${needsJoin(tournament) ? ": only players who join may play" : ""}.`;
  item.append(button, " ", link, about);
  return item;
}

/**
 * The tournaments panel of /play: `refresh(api)` lists those the player of `api` ({token}) may play (none
 * shown for null); `onPick(tournament)` is called with the one chosen. `title(id)` names a listed one;
 * `wanted()` is the button of the tournament the page was opened for, once listed and playable.
 */
export function tournamentChoice(onPick) {
  const wanted = new URLSearchParams(window.location.search).get("tournament");
  const titles = new Map();
  let asked = 0; // the latest refresh: an earlier one's answer, for another player, shows nothing

  async function refresh(api) {
    const mine = ++asked;
    if (api === null) {
      $("tournaments").hidden = true;
      return;
    }
    let found;
    try {
      const { body } = await request(endpoint(window.location.origin, `/v1/tournaments?state=running&limit=${LISTED}`));
      const ids = [...new Set([wanted, ...body.tournaments.map((one) => one.id)].filter(Boolean))];
      found = await Promise.all(ids.map((id) => tournamentFor(api.token, id).catch((error) => ({ id, error }))));
    } catch {
      found = [];
    }
    if (mine !== asked) return;
    const listed = found.filter((one) => !one.error && (one.id === wanted || unplayable(one) === null));
    for (const one of listed) titles.set(one.id, one.title);
    const missing = found.find((one) => one.id === wanted && one.error?.status === 404);
    $("tournament-list").replaceChildren(...listed.map((one) => choice(one, onPick)));
    $("tournament-missing").textContent = missing
      ? `There is no tournament ${wanted} to play: the link may be mistyped.`
      : "";
    $("tournaments").hidden = !listed.length && !missing;
  }

  return {
    refresh,
    title: (id) => titles.get(id) ?? id,
    wanted: () => (wanted ? document.querySelector(`#tournament-list [data-tournament="${CSS.escape(wanted)}"]`) : null),
  };
}
