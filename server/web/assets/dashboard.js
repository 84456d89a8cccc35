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

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

async function loadLive() {
  const { data } = await api("/api/dashboard/live");
  $("live-state").textContent = data.live
    ? `Live for ${Math.floor(data.uptime_seconds / 60)} min — ${data.game_name} — ${data.viewer_count} viewers — “${data.title}”`
    : "Offline";
}

async function loadCommands() {
  const { data } = await api("/api/dashboard/commands");
  const rows = $("command-rows");
  rows.replaceChildren();
  for (const command of data) {
    const row = el("tr");
    row.append(el("td", command.command, { title: command.description }));
    const enabled = el("input", undefined, { type: "checkbox" });
    enabled.checked = command.enabled;
    const cooldown = el("input", undefined, { type: "number", min: "0", max: "3600" });
    cooldown.value = String(command.cooldownSeconds);
    const save = el("button", "Save", { type: "button", class: "secondary" });
    const test = el("button", "Test", { type: "button", class: "secondary" });
    const answer = el("span", "", { class: "muted" });
    save.addEventListener("click", async () => {
      try {
        await api(`/api/dashboard/commands/${command.command}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ enabled: enabled.checked, cooldownSeconds: Number(cooldown.value) }),
        });
        answer.textContent = "Saved.";
      } catch (error) {
        answer.textContent = error.message;
      }
    });
    test.addEventListener("click", async () => {
      const sample = {
        followage: "user=viewer_anna",
        shoutout: "user=otherstreamer",
        roulette: "user=viewer_anna",
      };
      try {
        const { data: reply } = await api(
          `/api/dashboard/test/${command.command}?${sample[command.command] ?? ""}`,
          { method: "POST" },
        );
        answer.textContent = reply.text;
      } catch (error) {
        answer.textContent = error.message;
      }
    });
    const cell = (node) => {
      const td = el("td");
      td.append(node);
      return td;
    };
    const actions = el("td");
    actions.append(save, " ", test);
    row.append(cell(enabled), cell(cooldown), actions, cell(answer));
    rows.append(row);
  }
}

async function loadOverlay() {
  const { data } = await api("/api/dashboard/overlay");
  $("overlay-url").textContent = data.overlay_url ?? "(rotate the overlay token to get a link)";
  $("overlay-connections").textContent = String(data.connections);
  $("overlay-title").value = data.state.title ?? "";
  $("overlay-text").value = data.state.text ?? "";
}

$("overlay-publish").addEventListener("click", async () => {
  try {
    await api("/api/dashboard/overlay/state", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ state: { title: $("overlay-title").value, text: $("overlay-text").value } }),
    });
    showStatus("Published to your overlays.");
  } catch (error) {
    showStatus(error.message);
  }
});

async function loadAnalytics() {
  const { data } = await api("/api/dashboard/analytics?days=7");
  $("analytics-summary").textContent =
    `${data.total_calls} command calls (${data.ok_calls} answered) from ${data.distinct_callers} viewers`;
  $("analytics-commands").replaceChildren(
    ...data.by_command.map((c) => el("li", `${c.command}: ${c.calls} calls, ~${c.avg_latency_ms} ms`)),
  );
}

let activityCursor = null;
async function loadActivity(more = false) {
  const { data } = await api(
    `/api/dashboard/activity${more && activityCursor ? `?before=${activityCursor}` : ""}`,
  );
  const items = data.items.map((i) =>
    el(
      "li",
      `${new Date(i.at).toLocaleTimeString()} — ${i.command}${i.caller ? ` by ${i.caller}` : ""}: ${i.outcome}`,
    ),
  );
  if (more) $("activity-list").append(...items);
  else
    $("activity-list").replaceChildren(
      ...(items.length ? items : [el("li", "No command calls yet.", { class: "muted" })]),
    );
  activityCursor = data.cursor;
  $("activity-more").hidden = !data.cursor;
}
$("activity-more").addEventListener("click", () => loadActivity(true).catch((e) => showStatus(e.message)));

async function loadClips() {
  const { data } = await api("/api/dashboard/get-clips?first=5&period=week");
  const list = $("clip-list");
  list.replaceChildren(
    ...data.items.map((clip) => {
      const item = el("li");
      const link = el("a", clip.title, { href: clip.url, target: "_blank", rel: "noopener noreferrer" });
      item.append(link, ` — ${clip.view_count} views, by ${clip.creator_name}`);
      return item;
    }),
  );
  if (data.items.length === 0) list.replaceChildren(el("li", "No clips this week yet."));
}

async function loadChatters() {
  const { data } = await api("/api/dashboard/chatters?first=1000");
  const names = data.items.map((c) => c.user_name);
  $("chatter-summary").textContent = names.length
    ? `${names.length}${data.cursor ? "+" : ""} in chat: ${names.slice(0, 30).join(", ")}${names.length > 30 ? "…" : ""}`
    : "Nobody in chat right now.";
}

/** Each panel loads on its own: one failing (Twitch down) never blanks the others. */
function settle(loader, where) {
  return loader().catch((error) => {
    const target = $(where);
    if (target) target.textContent = error.message;
  });
}

loadSession()
  .then(() =>
    Promise.all([
      settle(loadProfile, "profile-role"),
      settle(loadLive, "live-state"),
      settle(loadCommands, "command-rows"),
      settle(loadOverlay, "overlay-url"),
      settle(loadAnalytics, "analytics-summary"),
      settle(() => loadActivity(), "activity-list"),
      settle(loadClips, "clip-list"),
      settle(loadChatters, "chatter-summary"),
    ]),
  )
  .catch((error) => showStatus(error.message));
