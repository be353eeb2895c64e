// A tournament's page: Join for the player signed in in this browser while its entry window is open (from its
// creation until its end), and what their entry is; Play (rendered while it runs) opens /play on it. The
// page is the same for everyone: the entry is read with the player's token, from this browser's storage.
import { explain } from "./play-player.js";
import { joinTournament, tournamentFor, unplayable } from "./play-tournaments.js";
import { storedPlayer } from "./site.js";

const $ = (id) => document.getElementById(id);
const entry = $("entry");
const player = storedPlayer();

/** The signed-in player's entry, in a sentence; Join offered while they have not joined. */
function showEntry(tournament) {
  const you = tournament.you;
  $("join").hidden = you.joined;
  const attempts = `${you.attempts_left} attempt${you.attempts_left === 1 ? "" : "s"} left`;
  const why = tournament.state === "running" ? unplayable(tournament) : null;
  $("entry-status").textContent = you.joined
    ? `${player.name}, you joined: ${attempts}.${why ? ` ${why}` : ""}`
    : tournament.join_required
      ? `${player.name}, only players who join may play: join, then play.`
      : `${player.name}, your first game joins you; or join now.${why ? ` ${why}` : ""}`;
}

if (entry && player) {
  const id = entry.dataset.tournament;
  $("join").addEventListener("click", async () => {
    $("join").disabled = true;
    try {
      await joinTournament(player.token, id);
      showEntry(await tournamentFor(player.token, id));
      ($("play") ?? $("join")).focus();
    } catch (error) {
      $("entry-status").textContent = explain(error);
    } finally {
      $("join").disabled = false;
    }
  });
  tournamentFor(player.token, id)
    .then(showEntry)
    .catch((error) => ($("entry-status").textContent = explain(error)))
    .finally(() => (document.body.dataset.ready = "true"));
} else {
  document.body.dataset.ready = "true";
}
