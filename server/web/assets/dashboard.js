// The dashboard talks to cuebot's own API with the session cookie; state-changing calls are
// same-origin fetches, so the browser sends the Origin header the server checks.
const $ = (id) => document.getElementById(id);
const REVEAL_SECONDS = 30;
const MASK = "••••••••-••••-••••-••••-••••••••••••";

function showStatus(text) {
  const box = $("status");
  box.textContent = text;
  box.hidden = !text;
}

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  if (response.status === 401) {
    window.location.href = "/";
    throw new Error("not logged in");
  }
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `Request failed (${response.status})`);
  return body;
}

async function loadSession() {
  const session = await api("/api/system/validate");
  const user = session.user;
  $("who").textContent = user.display_name;
  if (user.profile_image_url) {
    $("avatar").src = user.profile_image_url;
    $("avatar").hidden = false;
  }
  $("session-login").textContent = user.login;
  $("session-id").textContent = user.id;
  $("session-timezone").textContent = user.timezone;
  $("session-expires").textContent = new Date(session.tokenExpiresAt).toLocaleString();
}

async function loadProfile() {
  const { data } = await api("/api/dashboard/profile");
  $("profile-role").textContent = data.role;
  $("profile-bot").textContent = `${data.limits.bot_per_minute} requests per minute`;
  $("profile-heavy").textContent = `${data.limits.heavy_per_minute} requests per minute`;
  $("profile-panel").textContent = `${data.limits.panel_per_minute} requests per minute`;
}

let hideTimer = null;
function showKey(key) {
  clearInterval(hideTimer);
  $("api-key").textContent = key;
  $("copy-key").hidden = false;
  let left = REVEAL_SECONDS;
  $("key-countdown").textContent = `hidden again in ${left} s`;
  hideTimer = setInterval(() => {
    left -= 1;
    if (left > 0) {
      $("key-countdown").textContent = `hidden again in ${left} s`;
      return;
    }
    clearInterval(hideTimer);
    $("api-key").textContent = MASK;
    $("copy-key").hidden = true;
    $("key-countdown").textContent = "";
  }, 1000);
}

$("reveal-key").addEventListener("click", async () => {
  try {
    const { data } = await api("/api/dashboard/security/reveal-key", { method: "POST" });
    showKey(data.apiKey);
  } catch (error) {
    showStatus(error.message);
  }
});

$("copy-key").addEventListener("click", () => navigator.clipboard?.writeText($("api-key").textContent));

$("regenerate-key").addEventListener("click", async () => {
  if (!confirm("Regenerate the API key? Chat bots using the old key stop working until you update them."))
    return;
  try {
    const { data } = await api("/api/dashboard/security/regenerate-key", { method: "POST" });
    showKey(data.apiKey);
    showStatus("New API key issued. Update your chat bot commands with it.");
  } catch (error) {
    showStatus(error.message);
  }
});

$("rotate-overlay").addEventListener("click", async () => {
  if (!confirm("Issue a new overlay token? Overlays using the old one stop updating.")) return;
  try {
    const { data } = await api("/api/dashboard/security/rotate-overlay-token", { method: "POST" });
    const out = $("overlay-token-out");
    out.textContent = `New overlay URL: ${window.location.origin}/overlay/${data.overlayToken}`;
    out.hidden = false;
  } catch (error) {
    showStatus(error.message);
  }
});

$("delete-account").addEventListener("click", async () => {
  const login = $("session-login").textContent;
  const typed = prompt(`This deletes your account and all its data. Type your login (${login}) to confirm.`);
  if (typed === null) return;
  if (typed.trim().toLowerCase() !== login.toLowerCase()) {
    showStatus("The login did not match; nothing was deleted.");
    return;
  }
  try {
    await api("/api/dashboard/account", { method: "DELETE" });
    window.location.href = "/";
  } catch (error) {
    showStatus(error.message);
  }
});

$("logout").addEventListener("click", async () => {
  await fetch("/auth/logout", { method: "POST", credentials: "same-origin" });
  window.location.href = "/";
});

loadSession()
  .then(loadProfile)
  .catch((error) => showStatus(error.message));
