// The OBS overlay: the published card (state) and stream alerts, each over Server-Sent Events.
// EventSource reconnects by itself and sends Last-Event-ID, so a restart of cuebot or OBS needs no
// action; an answer other than the stream (cuebot's database away: 503, a limit: 429) makes it give
// up, so then it is opened again after a pause that grows to a minute.
// `?only=alerts` shows alerts only (a browser source of its own for the alerts); `muted=1` plays no
// sound (the dashboard's live preview: the alerts sound in OBS, not twice in the streamer's tab).
const token = decodeURIComponent(location.pathname.split("/").pop() || "");
const query = new URLSearchParams(location.search);
const onlyAlerts = query.get("only") === "alerts";
const muted = query.get("muted") === "1";
const card = document.getElementById("card");
const status = document.getElementById("status");

function render(state) {
  const title = typeof state.title === "string" ? state.title : "";
  const text = typeof state.text === "string" ? state.text : "";
  document.getElementById("title").textContent = title;
  document.getElementById("text").textContent = text;
  card.hidden = !title && !text;
}

/** Opens a stream and keeps it open; `url()` is asked again each time it is opened anew. */
function keepOpen(url, events) {
  let pauseMs = 5000;
  function open() {
    const source = new EventSource(url());
    for (const [name, handle] of Object.entries(events)) {
      source.addEventListener(name, (event) => {
        status.hidden = true;
        pauseMs = 5000;
        handle(event);
      });
    }
    source.addEventListener("error", () => {
      status.textContent = "cuebot: reconnecting…";
      status.hidden = false;
      if (source.readyState !== EventSource.CLOSED) return;
      setTimeout(open, pauseMs);
      pauseMs = Math.min(pauseMs * 2, 60_000);
    });
  }
  open();
}

if (!onlyAlerts) {
  keepOpen(() => `/api/overlay/events?token=${encodeURIComponent(token)}`, {
    state: (event) => render(JSON.parse(event.data).state || {}),
  });
}

// ---- Alerts: a queue, one at a time, each alert id shown once (a reload never replays one) ----

const LABELS = {
  follow: "New follower",
  subscribe: "New subscriber",
  resub: "Resub",
  gift: "Gifted subs",
  cheer: "Cheer",
  raid: "Raid",
  redemption: "Channel points",
};
/** How long the way out takes (the CSS transition), and the pause before the next alert. */
const LEAVE_MS = 450;
const GAP_MS = 400;
const storageKey = `cuebot.alerts.shown:${token}`;
const stage = document.getElementById("alert");
const image = document.getElementById("alert-image");
/** The queue's longest length (a flood drops its oldest), and the age past which a queued alert is dropped. */
const QUEUE_MAX = 50;
const STALE_MS = 120_000;
/** How many ids the page remembers having heard (the oldest forgotten first). */
const SEEN_MAX = 1000;
const queue = [];
/**
 * Ids heard while the page is open (the stream may bring one again after a reconnect). Ids are not
 * assumed to arrive in order: an alert with a lower id than one already heard is still shown.
 */
const seen = new Set();
let showing = false;

function readLastShown() {
  try {
    const stored = Number(localStorage.getItem(storageKey));
    return Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
  } catch {
    return 0; // storage refused (a sandboxed frame): this page load still shows each alert once
  }
}
/** The highest id shown before this page loaded (a reload never replays it or anything older). */
const shownBeforeLoad = readLastShown();
let lastShown = shownBeforeLoad;
/** The highest id heard: a reconnect asks for what came after it. */
let lastHeard = shownBeforeLoad;

function rememberShown(id) {
  if (id <= lastShown) return;
  lastShown = id;
  try {
    localStorage.setItem(storageKey, String(id));
  } catch {
    // as above
  }
}

const assetUrl = (id) => `/api/overlay/assets/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
const isId = (value) => Number.isSafeInteger(value) && value > 0;

function playSound(alert) {
  if (muted || !isId(alert.soundId)) return;
  const audio = new Audio(assetUrl(alert.soundId));
  audio.volume = Math.min(1, Math.max(0, Number(alert.volume) / 100 || 0));
  // A browser that needs a click first refuses (OBS does not): the alert shows without its sound.
  const played = audio.play();
  if (played && typeof played.catch === "function") played.catch(() => {});
}

function fill(alert) {
  stage.className = `alert-${LABELS[alert.type] ? alert.type : "other"}`;
  const label = LABELS[alert.type] || "Alert";
  document.getElementById("alert-label").textContent = alert.test ? `${label} · test` : label;
  document.getElementById("alert-text").textContent = String(alert.text ?? "");
  const message = alert.fields && typeof alert.fields.message === "string" ? alert.fields.message : "";
  const messageBox = document.getElementById("alert-message");
  messageBox.textContent = message;
  messageBox.hidden = message === "";
  image.hidden = !isId(alert.imageId);
  if (isId(alert.imageId)) image.src = assetUrl(alert.imageId);
  else image.removeAttribute("src");
}

/** The next alert to show, leaving out those that waited too long (the moment has passed). */
function nextFresh() {
  while (queue.length > 0) {
    const alert = queue.shift();
    if (!(Number(alert.at) < Date.now() - STALE_MS)) return alert;
  }
  return null;
}

function showNext() {
  if (showing) return;
  const alert = nextFresh();
  if (!alert) return;
  showing = true;
  rememberShown(alert.id);
  fill(alert);
  stage.hidden = false;
  // The next frame starts the transition in from the hidden state.
  requestAnimationFrame(() => requestAnimationFrame(() => stage.classList.add("in")));
  playSound(alert);
  const duration = Math.min(30_000, Math.max(1000, Number(alert.durationMs) || 6000));
  setTimeout(() => {
    stage.classList.remove("in");
    setTimeout(() => {
      stage.hidden = true;
      showing = false;
      setTimeout(showNext, GAP_MS);
    }, LEAVE_MS);
  }, duration);
}

function heard(event) {
  let alert;
  try {
    alert = JSON.parse(event.data);
  } catch {
    return;
  }
  if (!alert || !isId(alert.id) || alert.id <= shownBeforeLoad || seen.has(alert.id)) return;
  seen.add(alert.id);
  if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value);
  lastHeard = Math.max(lastHeard, alert.id);
  queue.push(alert);
  queue.sort((a, b) => a.id - b.id);
  if (queue.length > QUEUE_MAX) queue.splice(0, queue.length - QUEUE_MAX);
  showNext();
}

image.addEventListener("error", () => {
  image.hidden = true;
});
keepOpen(() => `/api/overlay/alerts?token=${encodeURIComponent(token)}&after=${lastHeard}`, { alert: heard });
