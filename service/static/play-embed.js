// /play embedded in a studio's page: the studio's token (a JWT) handed over by postMessage, kept in memory only.
//
// The handshake (docs/integrators.md, "Embedding /play"). The operator names
// the origins whose pages may frame /play (SCOUNDREL_EMBED_ORIGINS: the
// page's frame-ancestors, and <body data-embed-origins>). Framed, the page
// posts to its parent, at a trusted origin (never "*"):
//   {type: "scoundrel:ready"}
// and the parent answers, and may again at any time (a fresh token before the last expires):
//   {type: "scoundrel:sign-in", token: "<JWT>"}   play as that studio account's player
//   {type: "scoundrel:sign-out"}                  stop playing as anyone
// The page answers each sign-in:
//   {type: "scoundrel:signed-in", player: "<name>"}
//   {type: "scoundrel:refused", reason: "<code>"} the referee's reason (token_expired, …)
// An account with no player yet (403 not_linked) has the player choose a
// name first (POST /v1/players with the token). The token goes into no URL
// and no storage: only into the Authorization of the page's requests. A
// message from any window but the parent, or from an origin not trusted, is
// ignored, with a warning in the console for whoever sets the page up.
import { ApiError, endpoint, registerPlayer, request } from "./client/api.js";
import { explain, refusal, showError } from "./play-player.js";
import { showSignedIn } from "./site.js";

export const READY = "scoundrel:ready";
export const SIGN_IN = "scoundrel:sign-in";
export const SIGN_OUT = "scoundrel:sign-out";
export const SIGNED_IN = "scoundrel:signed-in";
export const REFUSED = "scoundrel:refused";
const NOT_LINKED = "not_linked"; // the referee's reason for a studio account with no player yet

const $ = (id) => document.getElementById(id);
const host = (origin) => new URL(origin).host;

/** The origins trusted to embed the page, if it is framed (then by one of them: no other may frame it); else null. */
export function embedding() {
  const origins = (document.body.dataset.embedOrigins ?? "").split(" ").filter(Boolean);
  return window.parent !== window && origins.length ? origins : null;
}

/** Where "ready" goes: the parent's origin, where the browser names it; else every trusted origin, of which the
 * browser delivers the message to the parent's alone. */
function parentOrigins(origins) {
  const named = window.location.ancestorOrigins?.[0] ?? (document.referrer && new URL(document.referrer).origin);
  return origins.includes(named) ? [named] : origins;
}

/**
 * The player panel of an embedded page: who the studio signed in, or the name chooser of an account with no
 * player yet. `onChange(player)` as playerPanel's: `{name, token}` signed in, null signed out. A fresh token
 * for the player playing replaces `player.token` in place, so a game in play goes on with it.
 */
export function studioPanel(origins, onChange) {
  let player = null;
  let unlinked = null; // {token, origin} of an account with no player yet, while its player chooses a name
  let turn = 0; // counts the messages: a sign-in answered after a newer message has nothing more to do

  const status = (text) => {
    $("studio-status").textContent = text;
    $("studio-status").hidden = !text;
  };
  const render = () => {
    $("player-signup").hidden = unlinked === null;
    $("player-token").hidden = player === null;
    $("player-name").textContent = player?.name ?? "";
  };
  const become = (who) => {
    player = who;
    unlinked = null;
    render();
    showSignedIn(who?.name ?? null);
    onChange(who);
  };
  const signedIn = (name, origin) => {
    status(`Signed in by ${host(origin)}.`);
    window.parent.postMessage({ type: SIGNED_IN, player: name }, origin);
  };

  async function signIn(token, origin) {
    const mine = ++turn;
    status(`Signing in through ${host(origin)}…`);
    try {
      const { body } = await request(endpoint(window.location.origin, "/v1/players/me"), { token });
      if (mine !== turn) return;
      if (player?.name === body.name) player.token = token;
      else become({ name: body.name, token });
      signedIn(body.name, origin);
    } catch (error) {
      if (mine !== turn) return;
      if (error instanceof ApiError && error.status === 403 && error.body?.reason === NOT_LINKED) {
        if (player !== null) become(null);
        unlinked = { token, origin };
        render();
        return status(`Your account at ${host(origin)} has no player here yet: choose the name you will play ` +
          "under, once.");
      }
      if (error instanceof ApiError && error.status === 401) become(null); // refused: nobody plays on with it
      status(explain(error));
      window.parent.postMessage({ type: REFUSED, reason: error.body?.reason ?? error.code ?? "error" }, origin);
    }
  }

  window.addEventListener("message", (event) => {
    const type = event.data?.type;
    if (typeof type !== "string" || !type.startsWith("scoundrel:")) return; // not this handshake's
    if (event.source !== window.parent || !origins.includes(event.origin)) {
      console.warn(`/play ignored ${type} from ${event.origin}: only the page framing it, at an origin in ` +
        "SCOUNDREL_EMBED_ORIGINS, signs a player in.");
      return;
    }
    if (type === SIGN_IN && typeof event.data.token === "string" && event.data.token) {
      signIn(event.data.token, event.origin);
    } else if (type === SIGN_OUT) {
      turn += 1;
      become(null);
      status(`Signed out by ${host(event.origin)}.`);
    }
  });

  $("signup").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("signup-name").value.trim();
    if (unlinked === null) return;
    if (!name) return showError("signup", "Type a name first.");
    showError("signup", "Choosing…");
    try {
      const chosen = await registerPlayer(window.location.origin, name, { token: unlinked.token });
      showError("signup", "");
      if (unlinked === null) return; // signed out, or in as someone else, meanwhile
      const { token, origin } = unlinked; // the newest token of the account, if a fresh one came meanwhile
      become({ name: chosen.name, token });
      signedIn(chosen.name, origin);
    } catch (error) {
      showError("signup", refusal(error, name));
    }
  });

  // Every other page of the referee refuses to be framed: a link leaves the frame, for a tab of its own.
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[href]");
    if (link) link.target = "_blank";
  }, true);
  $("have-token").hidden = true; // the studio's token is the only one here
  $("token-warning").hidden = true;
  $("signup").querySelector("button[type=submit]").textContent = "Play under this name";
  $("start").before($("player"));
  $("player").hidden = false;
  showSignedIn(null); // not whoever this browser keeps for the site itself
  render();
  status("Waiting for the site around this game to sign you in…");
  return {
    /** Post "ready": the parent answers with the studio's token. */
    ready() {
      for (const origin of parentOrigins(origins)) window.parent.postMessage({ type: READY }, origin);
    },
    /** The referee's spelling of the player's name, as a game names them. */
    rename(name) {
      if (player === null || player.name === name) return;
      player.name = name;
      render();
      showSignedIn(name);
    },
  };
}
