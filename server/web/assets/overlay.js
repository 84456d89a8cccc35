// Listens to the account's overlay state over Server-Sent Events; EventSource reconnects by itself
// and sends Last-Event-ID, so a restart of cuebot or OBS needs no action.
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

const events = new EventSource(`/api/overlay/events?token=${encodeURIComponent(token)}`);
events.addEventListener("state", (event) => {
  status.hidden = true;
  render(JSON.parse(event.data).state || {});
});
events.addEventListener("error", () => {
  status.textContent = "cuebot: reconnecting…";
  status.hidden = false;
});
