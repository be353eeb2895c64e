// The site's pages work without JavaScript; this module only adds the line of the player
// signed in on this browser. The sign-up on /play keeps {"name", "token"} under
// localStorage["scoundrel.player"]; only the (public) name is used here, never sent
// anywhere but as ?player=<name> to this same page, whose answer fills the [data-you] lines.
// A chart marks a player's score with their name; in that player's own browser it says "you".
export const STORAGE_KEY = "scoundrel.player";

/** The player this browser keeps, `{name, token}`, or null (none, or a browser that keeps nothing). */
export function storedPlayer() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    return stored && typeof stored.name === "string" && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

async function fillYourLines(name) {
  const lines = document.querySelectorAll("[data-you]");
  const url = new URL(window.location.href);
  if (!lines.length || url.searchParams.has("player")) return;
  url.searchParams.set("player", name);
  const response = await fetch(url, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const line of lines) {
    const yours = page.getElementById(line.id);
    if (yours) line.replaceWith(document.adoptNode(yours));
  }
}

/** Relabel "you" the chart markers of ``name``'s score (names ignore case). */
function markYours(name) {
  for (const label of document.querySelectorAll("text.marker-label[data-player]")) {
    if (label.dataset.player.toLowerCase() === name.toLowerCase()) label.textContent = `you ${label.dataset.score}`;
  }
}

/** The navigation's "Signed in as <name>" (linking the player's page), or nothing for null; /play calls it too. */
export function showSignedIn(name) {
  const badge = document.getElementById("signed-in");
  if (!badge) return;
  badge.replaceChildren();
  badge.hidden = !name;
  if (!name) return;
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(name)}`;
  link.textContent = name;
  badge.append("Signed in as ", link);
}

const name = storedPlayer()?.name;
if (name) {
  showSignedIn(name);
  fillYourLines(name).then(() => markYours(name), () => markYours(name));
}
