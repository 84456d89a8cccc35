// Listens to the account's overlay state over Server-Sent Events. EventSource reconnects by itself
// and sends Last-Event-ID, so a restart of cuebot or OBS needs no action; an answer other than the
// stream (cuebot's database away: 503, a limit: 429) makes it give up, so then it is opened again
// after a pause that grows to a minute.
const token = decodeURIComponent(location.pathname.split("/").pop() || "");
const card = document.getElementById("card");
const status = document.getElementById("status");

function render(state) {
  const title = typeof state.title === "string" ? state.title : "";
  const text = typeof state.text === "string" ? state.text : "";
  document.getElementById("title").textContent = title;
  document.getElementById("text").textContent = text;
  card.hidden = !title && !text;
}

let pauseMs = 5000;
function listen() {
  const events = new EventSource(`/api/overlay/events?token=${encodeURIComponent(token)}`);
  events.addEventListener("state", (event) => {
    status.hidden = true;
    pauseMs = 5000;
    render(JSON.parse(event.data).state || {});
  });
  events.addEventListener("error", () => {
    status.textContent = "cuebot: reconnecting…";
    status.hidden = false;
    if (events.readyState !== EventSource.CLOSED) return;
    setTimeout(listen, pauseMs);
    pauseMs = Math.min(pauseMs * 2, 60_000);
  });
}
listen();
