// The /play page's player: sign-up, the token kept in this browser, and what a refused request means.
//
// The token is the player's only key and the referee keeps only its hash, so
// the copy in localStorage["scoundrel.player"] ({name, token}, shared with
// the other pages) is the only one: the page says so and offers to show it.
// Where a studio embeds the page, its token stands in (play-embed.js). A
// player's own page reads the token here too, for their account's data.
import { ApiError, MoveError, registerPlayer } from "./client/index.js";
import { endpoint, request } from "./client/api.js";
import { STORAGE_KEY as PLAYER_KEY, showSignedIn, storedPlayer } from "./site.js";

const $ = (id) => document.getElementById(id);

/** The storage, or null where the browser refuses it (some private modes, storage turned off). */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Read a JSON value this page stored, or null. */
export function recall(key) {
  try {
    return JSON.parse(storage()?.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** Store a JSON value (null removes it); false where the browser keeps nothing. */
export function remember(key, value) {
  const store = storage();
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, JSON.stringify(value));
    return store !== null;
  } catch {
    return false;
  }
}

/** One sentence a person can act on, for any failure of a request to the referee. */
export function explain(error) {
  if (error instanceof MoveError) return error.message; // the referee's words, e.g. past the 200 moves of RULES.md
  if (!(error instanceof ApiError)) return `Something went wrong in this page: ${error?.message ?? error}`;
  const wait = error.retryAfter ? `${error.retryAfter} s` : "a moment";
  switch (error.status) {
    case null:
      return error.code === "timeout"
        ? "The referee has not judged the game yet: reload the page in a moment to see its verdict."
        : "The referee did not answer: check the connection and try again.";
    case 401:
      if (error.body?.reason) { // a studio's token (play-embed.js): its reason, e.g. token_expired
        return `The referee does not accept the sign-in from the site you play on (${error.body.reason}): sign ` +
          "in there again.";
      }
      return "The referee does not accept this token (a moderator may have replaced it). Forget this player and " +
        "use the new token, or sign up again.";
    case 429:
      return `Too many requests for now: try again in ${wait}.`;
    case 503:
      return `The referee is unavailable for a moment: try again in ${wait}.`;
    default:
      return error.body?.message ?? error.message;
  }
}

/** The reason a sign-up was refused, in words. */
export function refusal(error, name) {
  if (error instanceof ApiError && error.status === 409) {
    return `The name “${name}” is taken (names ignore case: “Ada” and “ADA” are one). Choose another.`;
  }
  if (error instanceof ApiError && error.status === 422) {
    return (error.errors?.name ?? [error.message]).join(" ");
  }
  return explain(error);
}

/** Why a token brought to the page was not taken, in words. */
function signInRefusal(error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return "The referee does not know this token: check that it was copied whole, or, if a moderator replaced " +
      "it, use the new one. Nothing was kept.";
  }
  return explain(error);
}

/** `message` beside the form `field` ("signup", "signin"), its name (or `input`) marked invalid while there is one. */
export function showError(field, message, input = $(`${field}-name`)) {
  $(`${field}-error`).textContent = message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/**
 * A button that asks before it acts: `id` opens the panel `${id}-confirm`,
 * whose `${id}-no` closes it again and `${id}-yes` closes it and calls `act`.
 * The focus goes to "no", the harmless answer, and back to `id` after it.
 */
export function confirmStep(id, act) {
  const panel = $(`${id}-confirm`);
  $(id).addEventListener("click", () => {
    panel.hidden = false;
    $(`${id}-no`).focus();
  });
  $(`${id}-no`).addEventListener("click", () => {
    panel.hidden = true;
    $(id).focus();
  });
  $(`${id}-yes`).addEventListener("click", () => {
    panel.hidden = true;
    act();
  });
}

/**
 * The player panel. `onChange(player)` is called when someone signs up,
 * brings a token, or is forgotten (null).
 */
export function playerPanel(onChange) {
  const render = (player) => {
    $("player-signup").hidden = player !== null;
    $("player-token").hidden = player === null;
    if (player === null) return;
    $("player-name").textContent = player.name;
    $("sign-out-name").textContent = player.name;
    $("token-value").textContent = player.token;
  };
  const become = (player, focus) => {
    if (!remember(PLAYER_KEY, player) && player !== null) {
      $("page-error").textContent = "This browser does not let the page keep anything: your token is shown below, " +
        "copy it now, as it will be gone when the page closes.";
      $("page-error").hidden = false;
    }
    render(player);
    showSignedIn(player?.name ?? null);
    onChange(player);
    if (player === null) return focus?.focus();
    // Just signed up or in: the note on the token, then "New game" right below it, both on the screen (a phone's
    // too), rather than the token scrolled to the foot of the screen with "New game" above, out of sight.
    $("start").before($("player"));
    $("player").scrollIntoView({ block: "start" });
    focus?.focus({ preventScroll: true });
  };

  $("signup").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("signup-name").value.trim();
    if (!name) return showError("signup", "Type a name first.");
    showError("signup", "Signing up…");
    try {
      const player = await registerPlayer(window.location.origin, name);
      showError("signup", "");
      $("token-note").textContent = `Signed up as ${player.name}. Your token was made for this browser only: ` +
        "keep a copy.";
      become(player, $("token-show"));
    } catch (error) {
      showError("signup", refusal(error, name));
      $("signup-name").focus();
    }
  });

  // A token brought is asked about (GET /v1/players/me) before the page says "Playing as" or keeps anything.
  $("signin").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("signin-name").value.trim();
    const token = $("signin-token").value.trim();
    if (!name || !token) return showError("signin", "Give both the name and its token.");
    for (const input of ["signin-name", "signin-token"]) $(input).removeAttribute("aria-invalid");
    $("signin-error").textContent = "Checking the token with the referee…";
    try {
      const { body } = await request(endpoint(window.location.origin, "/v1/players/me"), { token });
      if (body.name.toLowerCase() !== name.toLowerCase()) {
        showError("signin", `This token is “${body.name}”'s, not “${name}”'s: check the name. Nothing was kept.`);
        return $("signin-name").focus();
      }
      showError("signin", "");
      $("signin").reset();
      $("token-note").textContent = "";
      become({ name: body.name, token }, $("token-show"));
    } catch (error) {
      showError("signin", signInRefusal(error), $("signin-token"));
      $("signin-token").focus();
    }
  });

  const showToken = (show) => {
    $("token-box").hidden = !show;
    $("token-show").setAttribute("aria-expanded", String(show));
    $("token-show").textContent = show ? "Hide token" : "Show token";
  };
  $("token-show").addEventListener("click", () => showToken($("token-box").hidden));

  $("token-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("token-value").textContent);
      $("token-note").textContent = "The token is copied: paste it somewhere safe.";
    } catch {
      showToken(true);
      window.getSelection()?.selectAllChildren($("token-value"));
      $("token-note").textContent = "This browser did not let the page copy: the token is selected, copy it by hand.";
    }
  });

  confirmStep("sign-out", () => {
    showToken(false);
    become(null, $("signup-name"));
  });

  render(storedPlayer());
  $("player").hidden = false;
  return {
    /** The referee named the player otherwise (a token brought with a mistyped name): keep its spelling. */
    rename(name) {
      const known = storedPlayer();
      if (known === null || known.name === name) return;
      remember(PLAYER_KEY, { ...known, name });
      render({ ...known, name });
      showSignedIn(name);
    },
  };
}
