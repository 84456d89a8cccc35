// The OBS overlay page's script: the published card (state) and stream alerts, each over its own
// Server-Sent Events stream (stream.ts), and with `via: overlay` the OBS relay (obs-relay.ts).
// `?only=alerts` shows alerts only (a browser source of its own for the alerts); `muted=1` plays no
// sound and relays nothing to OBS (the dashboard's live preview: the alerts sound in OBS, not twice in
// the streamer's tab, and OBS is left to the page in OBS).
import { AlertPlayer } from "./alerts.ts";
import { newPageId, startObsRelay } from "./obs-relay.ts";
import { keepOpen } from "./stream.ts";

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the overlay page has no #${id}`);
  return found as T;
}

/** The published card: its title and text, hidden while both are empty. */
function render(state: { title?: unknown; text?: unknown }): void {
  const title = typeof state.title === "string" ? state.title : "";
  const text = typeof state.text === "string" ? state.text : "";
  byId("title").textContent = title;
  byId("text").textContent = text;
  byId("card").hidden = !title && !text;
}

const token = decodeURIComponent(location.pathname.split("/").pop() || "");
const query = new URLSearchParams(location.search);
/** The dashboard's live preview: silent, and no OBS relay. */
const preview = query.get("muted") === "1";
const status = byId("status");
const tokenQuery = `token=${encodeURIComponent(token)}`;

if (query.get("only") !== "alerts") {
  keepOpen(
    () => `/api/overlay/events?${tokenQuery}`,
    { state: (event) => render(JSON.parse(event.data).state || {}) },
    status,
  );
}

const alerts = new AlertPlayer(
  {
    stage: byId("alert"),
    image: byId<HTMLImageElement>("alert-image"),
    label: byId("alert-label"),
    text: byId("alert-text"),
    message: byId("alert-message"),
  },
  {
    assetUrl: (id) => `/api/overlay/assets/${encodeURIComponent(id)}?${tokenQuery}`,
    muted: preview,
    storageKey: `cuebot.alerts.shown:${token}`,
  },
);
// The alert stream also brings the OBS relay its settings and steps (via overlay), for this page load;
// the dashboard's preview (muted) shows the look only and leaves OBS to the page in OBS.
const page = newPageId();
keepOpen(
  () => `/api/overlay/alerts?${tokenQuery}&after=${alerts.lastHeard}${preview ? "" : `&page=${page}`}`,
  { alert: (event) => alerts.heard(event.data), ...(preview ? {} : startObsRelay(page, tokenQuery)) },
  status,
);
