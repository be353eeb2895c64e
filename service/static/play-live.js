// The /play page's "As it happens": the signed-in player's live events (docs/live.md) as they come, newest
// first, through the JS client's events() (which sends the token itself, so needs no ticket).
import { events } from "./client/index.js";

const SHOWN = 20; // events listed; older ones leave the list

const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
};

/** What an event says to its player, in words. */
export function describeEvent(data) {
  switch (data.type) {
    case "run.verified":
      return `Your run ${data.run_id} is verified.`;
    case "run.rejected":
      return `Your run ${data.run_id} was rejected.`;
    case "place.lost":
      return `${data.by ?? "Another player"} passed you${data.board ? ` on ${data.board.path}` : ""}: you are ${ordinal(data.place)}.`;
    default:
      return data.type;
  }
}

/** The list of events in `section`'s `list`, following one player at a time (`follow(api, name)`; none: null). */
export function followEvents(section, list) {
  let stop = null;
  return {
    follow(api, name) {
      stop?.abort();
      list.replaceChildren();
      section.hidden = !api;
      if (!api) return;
      const controller = new AbortController();
      stop = controller;
      (async () => {
        for await (const { data } of events(api.baseUrl, api.token, name, { signal: controller.signal })) {
          const item = document.createElement("li");
          item.textContent = describeEvent(data);
          item.dataset.type = data.type;
          list.prepend(item);
          while (list.children.length > SHOWN) list.lastElementChild.remove();
        }
      })().catch(() => { section.hidden = true; });
    },
  };
}
