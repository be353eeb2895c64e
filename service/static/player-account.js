// A player's own page (/players/<name>), in the browser that keeps their token: their data downloaded, and their
// account deleted after they type its name.
//
// The page is the same for everyone (a cache may keep it); this script shows
// the account's section only where localStorage["scoundrel.player"] holds the
// page's player (names ignore case), and sends that token to the API alone.
// The API's client is loaded in that browser only: every other reader of the
// page loads nothing more than site.js.
import { STORAGE_KEY as PLAYER_KEY, showSignedIn, storedPlayer } from "./site.js";

const $ = (id) => document.getElementById(id);
const section = $("account");
const page = section.dataset.player; // the player as registered
const same = (a, b) => a.toLowerCase() === b.toLowerCase();

/** The browser saves `text` as the file `filename`, as it saves any download. */
function save(text, filename) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000); // once the browser has read it
}

function note(text) {
  $("account-note").textContent = text;
}

function askToDelete(open) {
  $("account-delete-confirm").hidden = !open;
  $("account-delete").setAttribute("aria-expanded", String(open));
  $("delete-error").textContent = "";
  $("delete-name").removeAttribute("aria-invalid");
  if (open) $("delete-name").focus();
  else $("account-delete").focus();
}

function deleted() {
  showSignedIn(null);
  $("account-delete-confirm").hidden = true;
  $("account-intro").hidden = true;
  for (const button of section.querySelectorAll(".account-actions button")) button.hidden = true;
  note(`The account ${page} is deleted: its runs are off the boards, and this browser has forgotten its token. ` +
    "This page still shows what was here before.");
  $("account-note").focus();
}

/** The section's buttons, for `token`: `client` is the API's client and the sentences of refusals. */
function offer(token, { erasePlayer, explain, exportPlayer, remember }) {
  /** One sentence for a refused export or erasure: what happened, and what to do about it. */
  const refused = (error, action) => {
    switch (error.status) {
      case 401:
        return `The referee does not accept this browser's token for ${page} (a moderator may have replaced ` +
          `it): nothing was ${action}. On the Play page, forget this player and bring the new token; then try again.`;
      case 403:
        return `This browser's token is not ${page}'s: nothing was ${action}. Sign in as ${page} on the Play page.`;
      case 404:
        return `There is no player ${page} any more: the account has been deleted already.`;
      default:
        return explain(error);
    }
  };

  $("data-download").addEventListener("click", async () => {
    $("data-download").disabled = true;
    note("Gathering your data…");
    try {
      const data = await exportPlayer(window.location.origin, token, page);
      const filename = `scoundrel-${page}.json`;
      save(`${JSON.stringify(data, null, 2)}\n`, filename);
      note(`Your data is saved as ${filename}.`);
    } catch (error) {
      note(refused(error, "downloaded"));
    } finally {
      $("data-download").disabled = false;
    }
  });

  $("account-delete").addEventListener("click", () => askToDelete($("account-delete-confirm").hidden));
  $("account-delete-no").addEventListener("click", () => askToDelete(false));
  $("account-delete-confirm").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!same($("delete-name").value.trim(), page)) {
      $("delete-name").setAttribute("aria-invalid", "true");
      $("delete-error").textContent = `Type ${page} to delete this account; anything else keeps it.`;
      return $("delete-name").focus();
    }
    $("account-delete-yes").disabled = true;
    $("delete-error").textContent = "Deleting…";
    try {
      await erasePlayer(window.location.origin, token, page);
    } catch (error) {
      $("delete-error").textContent = refused(error, "deleted");
      return;
    } finally {
      $("account-delete-yes").disabled = false;
    }
    remember(PLAYER_KEY, null);
    deleted();
  });
}

const player = storedPlayer();
if (player && same(player.name, page)) {
  const [client, sentences] = await Promise.all([import("./client/api.js"), import("./play-player.js")]);
  offer(player.token, { ...client, ...sentences });
  section.hidden = false;
}
document.body.dataset.ready = "true"; // the section is as it will stay: shown to its player, hidden to anyone else
