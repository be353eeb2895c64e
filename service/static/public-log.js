// A run's place in the referee's public log, as the replay viewer and /play show it: "In the public log at #N",
// said only once this browser has checked it with the JS client (checkLogged, clients/js/src/transparency.js):
// the latest checkpoint's signature by the log's key, the run's leaf, and its inclusion proof to the checkpoint's
// root. A check that fails is said plainly; a run the log does not hold yet shows nothing.
import { LogCheckError, checkLogged, getRun } from "./client/index.js";

const RECHECK_MS = 5000; // a run logged after the latest checkpoint is checked again this often (the workers
const RECHECKS = 12; //     sign one every few seconds), this many times, before the page leaves it to a reload

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function link(text, href) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

/** The leaf at `index`, as the log serves it: the exact text hashed and its hash. */
const entryUrl = (index) => `/v1/log/entries?start=${index}&end=${index + 1}`;

/** An error's message as the end of a sentence: one full stop. */
const sentence = (error) => `${String(error?.message ?? error).replace(/\.+$/, "")}.`;

function say(element, outcome, ...parts) {
  element.replaceChildren(...parts);
  element.dataset.log = outcome;
  element.hidden = false;
}

/**
 * Say in `element` where the run `runId` is in the public log, once this browser has checked it. `run` is the
 * run's JSON if the page has it (else it is asked for, with `token` if given); `current()` says whether the page
 * still shows that run when an answer comes. `element.dataset.log` says the outcome: `checked`, `pending` (logged
 * after the latest checkpoint), `failed` (a check did not hold), `unchecked` (the log could not be asked) or,
 * with nothing shown, `absent` (the run has no place in the log yet, or is not the reader's to see).
 */
export async function showLogPlace(element, runId, { run, token, current = () => true } = {}) {
  element.hidden = true;
  delete element.dataset.log;
  const api = { baseUrl: window.location.origin, token };
  try {
    run ??= await getRun(api.baseUrl, runId, { token });
  } catch {
    run = null; // the run is not the page's to show (sealed, erased): nor is its place
  }
  if (!current()) return;
  if (!run?.log) {
    element.dataset.log = "absent";
    return;
  }
  const place = `#${run.log.index}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { index, treeSize } = await checkLogged(api, runId, { run });
      if (!current()) return;
      return say(element, "checked", "In the public log at ", link(place, entryUrl(index)),
        ", checked in this browser against the log's ", link("signed checkpoint", "/v1/log/checkpoint"),
        ` of ${treeSize} entries.`);
    } catch (error) {
      if (!current()) return;
      if (error instanceof LogCheckError && error.code === "not_yet_checkpointed") {
        if (attempt >= RECHECKS) {
          return say(element, "pending", `In the public log at ${place}, after its latest signed checkpoint: ` +
            "this page checks it once the next one is signed (reload it).");
        }
        say(element, "pending", `In the public log at ${place}: waiting for the next signed checkpoint to check it…`);
        await wait(RECHECK_MS);
      } else if (error instanceof LogCheckError) {
        return say(element, "failed", `This run's place in the public log did not check out: ${sentence(error)}`);
      } else {
        return say(element, "unchecked", `This run's place in the public log (${place}) could not be checked: ` +
          sentence(error));
      }
    }
  }
}
