// A signed-in player's disputes and reports, on the pages they concern (docs/moderation.md, "A player's disputes
// and reports"). On a run's page (/runs/<id>) the run's own player disputes it and follows their dispute to the
// moderator's decision; anyone else signed in reports it. On a player's page (/players/<name>) the player sees
// their disputes and reports with their decisions; anyone else signed in reports the player.
//
// The pages are the same for everyone (a cache may keep them): this module shows the section only in a browser
// keeping a player's token (localStorage["scoundrel.player"], kept by /play), sends that token to this referee
// alone, and loads the API's client in that browser only.
import { storedPlayer } from "./site.js";

const $ = (id) => document.getElementById(id);
const same = (a, b) => a.toLowerCase() === b.toLowerCase();
const section = $("cases");
const me = storedPlayer();

/** A time of the API's (ISO 8601, UTC) as people read it: "2026-12-06 21:04 UTC". */
const when = (iso) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The report reasons' labels, as the page's own list of them says (cases.html). */
const reasonLabels = () => Object.fromEntries([...$("report-reason").options].map((o) => [o.value, o.textContent]));

/** One sentence for a refused request: what happened, and what to do about it. */
function refused(error, action) {
  const body = error.body ?? {};
  switch (error.status) {
    case 401:
      return `The referee does not accept this browser's token for ${me.name} (a moderator may have replaced it): ` +
        `nothing was ${action}. On the Play page, forget this player and bring the new token.`;
    case 404:
      return `It is not there any more: nothing was ${action}.`;
    case 409:
      return `Your report of this is open already: a moderator has yet to close it, and you may report it again then.`;
    case 422:
      return Object.values(body.errors ?? {}).flat().join(" ") || body.message || `Nothing was ${action}.`;
    case 429:
      return `You have sent as many reports as one may in an hour: nothing was ${action}. ` +
        (body.retry_at ? `You may send the next at ${when(body.retry_at)}.` : "Try again later.");
    default:
      return `The referee did not answer as it should (${error.message}): nothing was ${action}. Try again later.`;
  }
}

/** A paragraph of `text`, with `strong` in bold before it when given. */
function line(text, strong) {
  const p = document.createElement("p");
  if (strong) {
    const b = document.createElement("strong");
    b.textContent = strong;
    p.append(b, " ");
  }
  p.append(text);
  return p;
}

/** A link to a run's page. */
function runLink(runId) {
  const link = document.createElement("a");
  link.href = `/runs/${encodeURIComponent(runId)}`;
  const code = document.createElement("code");
  code.textContent = runId;
  link.append(code);
  return link;
}

const DECIDED = {
  uphold: "Upheld: the verdict stands.",
  void: "Voided: the run is off the boards.",
  actioned: "Acted on: a moderator acted on it.",
  dismissed: "Dismissed: a moderator found nothing to act on.",
};

/** A dispute as a list item: its run (on a player's page), reason, state, and the decision once resolved. */
function disputeItem(dispute, withRun) {
  const item = document.createElement("li");
  item.className = `case case-${dispute.status}`;
  if (withRun) item.append(line(runLink(dispute.run_id), "Run"));
  item.append(line(`“${dispute.reason}” (filed ${when(dispute.filed_at)})`, "You said"));
  if (dispute.status === "open") {
    item.append(line("a moderator has yet to decide.", "Open:"));
  } else {
    item.append(line(`Decided by ${dispute.moderator}, ${when(dispute.resolved_at)}.`, DECIDED[dispute.decision]));
    if (dispute.note) item.append(line(`“${dispute.note}”`, "The moderator's note:"));
  }
  return item;
}

/** A report as a list item: what it is about, why, its state, and the decision once closed. */
function reportItem(report, labels) {
  const item = document.createElement("li");
  item.className = `case case-${report.status}`;
  const about = line("", report.kind === "run" ? "Run" : "Player");
  if (report.kind === "run") about.append(runLink(report.target));
  else {
    const link = document.createElement("a");
    link.href = `/players/${encodeURIComponent(report.target)}`;
    link.textContent = report.target;
    about.append(link);
  }
  item.append(about, line(`${labels[report.reason] ?? report.reason}${report.text ? `: “${report.text}”` : ""} ` +
    `(sent ${when(report.filed_at)})`, "You said"));
  if (report.status === "open") item.append(line("a moderator has yet to read it.", "Open:"));
  else {
    item.append(line(`Decided by ${report.moderator}, ${when(report.closed_at)}.`, DECIDED[report.decision]));
    if (report.note) item.append(line(`“${report.note}”`, "The moderator's note:"));
  }
  return item;
}

/** Fill the list `id` (cases.html's case_list) with `items`, or say it has none. */
function fill(id, items) {
  $(`${id}-list`).replaceChildren(...items);
  $(`${id}-none`).hidden = items.length > 0;
  $(id).hidden = false;
}

/** The report form of the page's run or player, sent with `api`. */
function offerReport(api) {
  const form = $("report-form");
  const { kind, target } = form.dataset;
  const path = kind === "run" ? `/v1/runs/${encodeURIComponent(target)}/reports`
    : `/v1/players/${encodeURIComponent(target)}/reports`;
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("report-send").disabled = true;
    try {
      await api(path, { method: "POST", body: { reason: $("report-reason").value, text: $("report-text").value } });
      $("report-text").value = "";
      $("report-note").textContent = `Your report is sent: a moderator will read it. Your page lists it, with ` +
        "their decision once they close it.";
    } catch (error) {
      $("report-note").textContent = refused(error, "sent");
    } finally {
      $("report-send").disabled = false;
      $("report-note").focus();
    }
  });
}

/** The run's own player: the dispute form, and their disputes of this run with their state. */
async function offerDispute(api, runId) {
  const form = $("dispute-form");
  const mine = async () => (await api(`/v1/players/${encodeURIComponent(me.name)}/disputes`))
    .filter((dispute) => dispute.run_id === runId);
  const show = (disputes) => fill("run-disputes", disputes.reverse().map((dispute) => disputeItem(dispute, false)));
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const reason = $("dispute-reason").value.trim();
    if (!reason) {
      $("dispute-reason").setAttribute("aria-invalid", "true");
      $("dispute-note").textContent = "Say why the verdict is wrong: a moderator decides on what you write.";
      return $("dispute-reason").focus();
    }
    $("dispute-reason").removeAttribute("aria-invalid");
    $("dispute-send").disabled = true;
    try {
      await api(`/v1/runs/${encodeURIComponent(runId)}/disputes`, { method: "POST", body: { reason } });
      $("dispute-reason").value = "";
      $("dispute-note").textContent = "Your dispute is filed: a moderator will decide, and this page shows it.";
      show(await mine());
    } catch (error) {
      $("dispute-note").textContent = refused(error, "filed");
    } finally {
      $("dispute-send").disabled = false;
      $("dispute-note").focus();
    }
  });
  show(await mine());
}

/** The player's own page: their disputes and reports, newest first, with the moderators' decisions. */
async function showOwn(api) {
  const path = `/v1/players/${encodeURIComponent(me.name)}`;
  const [disputes, reports] = await Promise.all([api(`${path}/disputes`), api(`${path}/reports?limit=100`)]);
  fill("own-disputes", disputes.reverse().map((dispute) => disputeItem(dispute, true)));
  const labels = reasonLabels();
  fill("own-reports", reports.reports.map((report) => reportItem(report, labels)));
}

async function offer() {
  const { endpoint, request } = await import("./client/api.js");
  const api = async (path, options = {}) =>
    (await request(endpoint(window.location.origin, path), { token: me.token, retry: false, ...options })).body;
  const { runId, runPlayer, player } = section.dataset;
  section.hidden = false;
  try {
    if (runId && same(runPlayer, me.name)) await offerDispute(api, runId);
    else if (player && same(player, me.name)) await showOwn(api);
    else offerReport(api);
  } catch (error) {
    section.append(line(refused(error, "shown")));
  }
}

if (section && me) await offer();
if (section) section.dataset.ready = "true"; // as it will stay: shown to a signed-in player, hidden to anyone else
