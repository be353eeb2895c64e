// The replay viewer: fetches /v1/runs/<id>/replay and steps through it.
// Position 0 is the table before the first move; position k the table after move k.
// The masthead says where the run is in the public log, once this browser has checked it (public-log.js).
import { cardFace } from "./cards.js";
import { showLogPlace } from "./public-log.js";

(function () {
  const MAX_HEALTH = 20;
  const $ = (id) => document.getElementById(id);

  let replay = null;
  let position = 0;

  function playedCard(move) {
    // "S5w" → "S5"; "flee" → null
    if (!move || move === "flee") return null;
    return /[wb]$/.test(move) ? move.slice(0, -1) : move;
  }

  function table(at) {
    if (at === 0) return replay.start;
    const step = replay.steps[at - 1];
    return { room: step.room_after, health: step.health, weapon: step.weapon, kills: step.kills, dungeon: step.dungeon };
  }

  function describe(step) {
    const effect = step.effect;
    const parts = [];
    if (step.move === "flee") {
      parts.push(`Avoided the room: ${effect.avoided.join(" ")} go to the bottom of the dungeon.`);
    } else if (step.move[0] === "H") {
      parts.push(effect.healed ? `Drank ${step.move}: +${effect.healed} health.` : `Drank ${step.move}: no effect.`);
      if (effect.healed && effect.wasted) parts.push(`(${effect.wasted} wasted)`);
    } else if (step.move[0] === "D") {
      parts.push(`Equipped ${effect.equipped}.`);
      if (effect.discarded.length) parts.push(`Discarded ${effect.discarded.join(" ")}.`);
    } else if (step.move.endsWith("w")) {
      parts.push(`Fought ${playedCard(step.move)} with the weapon: ${effect.damage} damage.`);
    } else {
      parts.push(`Fought ${playedCard(step.move)} barehanded: ${effect.damage} damage.`);
    }
    if (effect.dealt.length) parts.push(`New room: ${effect.dealt.join(" ")}.`);
    return parts.join(" ");
  }

  function nextMove(at) {
    if (at < replay.steps.length) return replay.steps[at].move;
    if (replay.error && replay.error.move) return replay.error.move;
    return null;
  }

  function rejectedHere(at) {
    return replay.error && at === replay.steps.length;
  }

  function render() {
    const now = table(position);
    const last = replay.steps.length;

    const health = Math.max(0, now.health);
    $("health-fill").style.width = `${(100 * health) / MAX_HEALTH}%`;
    $("health-fill").className = `health-fill ${health > 12 ? "good" : health > 6 ? "low" : "critical"}`;
    $("health-value").textContent = `${now.health} / ${MAX_HEALTH}`;
    $("health-bar").setAttribute("aria-valuenow", String(now.health));
    $("dungeon-count").textContent = String(now.dungeon);

    const upcoming = playedCard(nextMove(position));
    const offending = rejectedHere(position);
    const room = $("room");
    room.replaceChildren();
    now.room.forEach((card) => {
      let mark = "";
      if (card === upcoming) mark = offending ? "offending" : "upcoming";
      room.appendChild(cardFace(card, mark));
    });
    for (let slot = now.room.length; slot < 4; slot += 1) {
      const empty = document.createElement("div");
      empty.className = "card slot";
      room.appendChild(empty);
    }

    const weapon = $("weapon");
    const kills = $("kills");
    weapon.replaceChildren();
    kills.replaceChildren();
    if (now.weapon) {
      weapon.appendChild(cardFace(now.weapon, "wielded"));
      now.kills.forEach((card) => kills.appendChild(cardFace(card, "kill")));
      const lastKill = now.kills[now.kills.length - 1];
      $("weapon-note").textContent = lastKill
        ? `Last kill ${lastKill}: it may only fight monsters below ${Number(lastKill.slice(1))} (R10).`
        : "Fresh: it may fight any monster (R9).";
    } else {
      const none = document.createElement("div");
      none.className = "card slot";
      none.textContent = "bare hands";
      weapon.appendChild(none);
      $("weapon-note").textContent = "Every fight is barehanded (R11).";
    }
    $("kills-title").hidden = !(now.weapon && now.kills.length);

    $("move-text").textContent = position === 0
      ? "The first room is dealt."
      : `Move ${position}: ${replay.steps[position - 1].move}. ${describe(replay.steps[position - 1])}`;

    const error = $("error");
    error.hidden = !replay.error || !offending;
    if (replay.error && offending) {
      const what = replay.error.move ? `Move ${replay.error.move_index + 1} (${replay.error.move}) is rejected` : "Rejected";
      error.innerHTML = "";
      const title = document.createElement("strong");
      title.textContent = `${what}: ${replay.error.code} (${replay.error.ruling})`;
      const message = document.createElement("span");
      message.textContent = replay.error.message;
      error.append(title, message);
    }

    const final = $("final");
    final.hidden = !(replay.final && position === last);
    if (replay.final) {
      final.innerHTML = "";
      const title = document.createElement("strong");
      title.textContent = replay.final.outcome === "won" ? "Won" : "Lost";
      const score = document.createElement("span");
      score.className = "score";
      score.id = "score";
      score.textContent = `Score ${replay.final.score}`;
      const more = document.createElement("span");
      more.textContent = `health ${replay.final.health} · ${replay.final.moves} moves`;
      final.append(title, score, more);
      final.className = `banner final-banner ${replay.final.outcome}`;
    }

    $("slider").value = String(position);
    $("position").textContent = `Move ${position} / ${last}`;
    $("prev").disabled = $("first").disabled = position === 0;
    $("next").disabled = $("last").disabled = position === last;
    document.querySelectorAll("#moves li").forEach((item, index) => {
      item.classList.toggle("current", index === position - 1);
    });
  }

  function go(to) {
    position = Math.max(0, Math.min(replay.steps.length, to));
    render();
  }

  function moveTime(index) {
    // A dealt game's server time of each move, shown to moderators: the gap since the move before.
    const at = new Date(replay.move_times[index]);
    const gap = index ? (at - new Date(replay.move_times[index - 1])) / 1000 : null;
    const element = document.createElement("small");
    element.className = "move-time";
    element.title = replay.move_times[index];
    element.textContent = gap === null ? at.toISOString().slice(11, 19) : `+${gap.toFixed(gap < 10 ? 3 : 0)} s`;
    return element;
  }

  function moveList() {
    const list = $("moves");
    replay.steps.forEach((step, index) => {
      const item = document.createElement("li");
      item.textContent = step.move;
      if (replay.move_times) item.appendChild(moveTime(index));
      item.addEventListener("click", () => go(index + 1));
      list.appendChild(item);
    });
    if (replay.error && replay.error.move) {
      const item = document.createElement("li");
      item.className = "offending";
      item.textContent = replay.error.move;
      item.title = replay.error.message;
      item.addEventListener("click", () => go(replay.steps.length));
      list.appendChild(item);
    }
    list.hidden = false;
  }

  function start(data) {
    replay = data;
    $("slider").max = String(replay.steps.length);
    $("slider").addEventListener("input", (event) => go(Number(event.target.value)));
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(position - 1));
    $("next").addEventListener("click", () => go(position + 1));
    $("last").addEventListener("click", () => go(replay.steps.length));
    document.addEventListener("keydown", (event) => {
      if (event.target.tagName === "INPUT") return; // a focused slider moves itself (and fires "input")
      const moves = { ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: replay.steps.length };
      if (event.key in moves) {
        event.preventDefault();
        go(moves[event.key]);
      }
    });
    moveList();
    $("loading").hidden = true;
    $("table").hidden = false;
    $("controls").hidden = false;
    document.body.dataset.ready = "true";
    render();
  }

  // A moderator's token, kept for this tab only, shows a dealt game's move times
  // and the run's flags (and a sealed daily run before its day is over).
  const TOKEN_KEY = "scoundrel-moderator-token";
  const headers = { Accept: "application/json" };
  // The desk's case page (no token panel) is signed in by its session: its replay carries the move times.
  if ($("moderator") && sessionStorage.getItem(TOKEN_KEY)) {
    headers.Authorization = `Bearer ${sessionStorage.getItem(TOKEN_KEY)}`;
    $("moderator-panel").open = true; // a moderator at work: the panel stays where they left it
  }

  function flagSummary(flag) {
    // What was seen, in words: the timing figures against their limit, or who shared an address.
    const seen = flag.detail;
    if (flag.reason === "fast_moves") {
      return `median ${seen.median_ms} ms between moves over ${seen.timed_moves} moves (a person: ${seen.limit_ms} ms or more)`;
    }
    if (flag.reason === "steady_rhythm") {
      return `gaps of ${seen.median_ms} ms that vary by ${Math.round(seen.spread * 100)}% over ${seen.timed_moves} moves (a person: ${Math.round(seen.limit * 100)}% or more)`;
    }
    if (flag.reason === "clairvoyant") {
      return `${flag.players.join(", ")} chose the way only the unseen cards showed at ${seen.perfect} of ${seen.telling} telling rooms in ${seen.runs.length} games (fair play: ${Math.round(seen.fair_rate * 100)}%; chance ${seen.tail}, flagged below ${seen.threshold})`;
    }
    return `${flag.players.join(", ")} started the sealed daily of ${seen.date} from one address`;
  }

  function flagItem(flag) {
    const item = document.createElement("li");
    item.className = `flag ${flag.status}`;
    item.dataset.flagId = flag.id;
    const reason = document.createElement("span");
    reason.className = "flag-reason";
    reason.textContent = flag.reason;
    const summary = document.createElement("span");
    summary.textContent = flagSummary(flag);
    const state = document.createElement("small");
    state.className = "muted flag-status";
    state.textContent = flag.dismissed
      ? `dismissed by ${flag.dismissed.moderator}${flag.dismissed.note ? `: ${flag.dismissed.note}` : ""}`
      : `raised ${flag.created_at.slice(0, 19).replace("T", " ")} UTC`;
    item.append(reason, summary, state);
    if (flag.status === "open") {
      const dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "flag-dismiss";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", () => {
        dismiss.disabled = true;
        fetch(`${document.body.dataset.flagsUrl}/${flag.id}/dismiss`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: "{}",
        })
          .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
          .then((dismissed) => item.replaceWith(flagItem(dismissed)))
          .catch((error) => {
            state.textContent = `could not dismiss (${error.message})`;
            dismiss.disabled = false;
          });
      });
      item.appendChild(dismiss);
    }
    return item;
  }

  function showFlags() {
    // The run's flags, for a moderator only: the API answers anyone else 401 or 403, and nothing is shown.
    const url = `${document.body.dataset.flagsUrl}?run_id=${encodeURIComponent(document.body.dataset.runId)}&limit=100`;
    return fetch(url, { headers })
      .then((response) => (response.ok ? response.json() : null))
      .then((page) => {
        if (!page) return;
        $("flag-list").replaceChildren(...page.entries.map(flagItem));
        $("flags-none").hidden = page.entries.length > 0;
        $("flags").hidden = false;
      })
      .catch(() => {});
  }
  $("moderator")?.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("moderator-token").value.trim());
    window.location.reload();
  });

  /** A refusal of the replay by the API, in its own sentence: a 403 is no failure but the rule of a sealed run
   * (a sealed daily's before its day is over), said as a plain sentence. */
  class Refused extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  if ($("log-place")) showLogPlace($("log-place"), document.body.dataset.runId, { token: sessionStorage.getItem(TOKEN_KEY) });

  fetch(document.body.dataset.replayUrl, { headers })
    .then(async (response) => {
      if (response.ok) return response.json();
      const body = await response.json().catch(() => null);
      throw new Refused(body?.message ?? `The replay could not be loaded (HTTP ${response.status}).`, response.status);
    })
    .then((data) => (headers.Authorization ? showFlags().then(() => data) : data))
    .then(start)
    .catch((error) => {
      $("loading").textContent = error instanceof Refused
        ? error.message
        : `The replay could not be loaded (${error.message}).`;
      $("loading").classList.add(error.status === 403 ? "refused" : "failed");
    });
})();
