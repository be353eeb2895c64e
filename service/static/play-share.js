// The /play page's share panel: once a sealed daily game is over and judged, the text a player pastes into
// a chat (the day, the score, the share of the day's board below it, the streak; never a card) and the link
// to its share page, whose Open Graph image a chat shows. Both come from the referee
// (GET /v1/daily/<date>/sealed/share/<name>, public), so the page and the link say the same thing.
import { DAILY } from "./client/index.js";

const $ = (id) => document.getElementById(id);

/** Show the share panel for the game ended in `state` with its verdict `run`; hide it for any other game.
 * `current()` says whether that game is still the one on the page when the answer comes. */
export async function offerShare(state, run, current) {
  $("share").hidden = true;
  if (state.challenge !== DAILY || run.status !== "verified") return;
  const path = `/v1/daily/${encodeURIComponent(state.date)}/sealed/share/${encodeURIComponent(state.player)}`;
  try {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    if (!response.ok || !current()) return; // not on the day's board: nothing to share
    const card = await response.json();
    $("share-text").textContent = card.text;
    $("share-link").href = card.url;
    $("share-note").textContent = "";
    $("share").hidden = false;
  } catch {
    // the verdict stands without a share panel
  }
}

/** Copy the share text; where the browser gives no clipboard (a page not on https), select it to copy by hand. */
async function copy() {
  const text = $("share-text").textContent;
  try {
    await navigator.clipboard.writeText(text);
    $("share-note").textContent = "Copied: paste it into a chat.";
  } catch {
    window.getSelection()?.selectAllChildren($("share-text"));
    $("share-note").textContent = "The text is selected: copy it with Ctrl+C (⌘C on a Mac).";
  }
}

$("share-copy").addEventListener("click", copy);
