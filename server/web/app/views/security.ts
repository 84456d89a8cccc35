// Security: the API key (reveal with a countdown, regenerate), the overlay link (new token), the
// session, the data export and account deletion. Every risky step is confirmed in a <dialog>.
import { errorMessage, sendData } from "../lib/api.ts";
import { forgetKey, KEY_MASK, remember, revealButton, showForAWhile } from "../lib/api-key.ts";
import { copyText } from "../lib/copy.ts";
import { confirmDialog } from "../lib/dialog.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { dateTime } from "../lib/format.ts";
import { announce } from "../lib/states.ts";
import type { App, View } from "../view.ts";

function section(title: string, ...content: (Node | null)[]): HTMLElement {
  const id = uid("sec");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...content);
}

function keySection(): HTMLElement {
  const key = h("code", { id: "api-key", class: "secret" }, KEY_MASK);
  const countdown = h("span", { id: "key-countdown", class: "muted", role: "status" });
  const out = h("p", { role: "alert", class: "error-text" });
  const copy = h("button", { type: "button", class: "secondary", id: "copy-key", hidden: true }, "Copy");
  let hide = () => {};
  const toggle = revealButton(
    { id: "reveal-key" },
    { reveal: "Reveal", hide: "Hide" },
    {
      reveal: async () => {
        fill(out);
        try {
          show((await sendData<{ apiKey: string }>("POST", "/api/dashboard/security/reveal-key")).apiKey);
        } catch (error) {
          fill(out, errorMessage(error));
        }
      },
      hide: () => hide(),
    },
  );
  const show = (value: string) => {
    hide();
    remember(value);
    copy.hidden = false;
    toggle.shown();
    hide = showForAWhile(key, countdown, value, () => {
      copy.hidden = true;
      toggle.hidden();
      forgetKey();
    });
  };
  copy.addEventListener("click", () => void copyText(key.textContent ?? "", "The API key"));
  const regenerate = async () => {
    const yes = await confirmDialog({
      title: "Regenerate the API key?",
      message: "Chat bots using the old key stop working at once, until you paste the new lines (Bot setup).",
      confirmLabel: "Regenerate",
      danger: true,
    });
    if (!yes) return;
    fill(out);
    try {
      show((await sendData<{ apiKey: string }>("POST", "/api/dashboard/security/regenerate-key")).apiKey);
      announce("New API key issued. Update your chat bot lines with it.");
    } catch (error) {
      fill(out, errorMessage(error));
    }
  };
  return section(
    "API key",
    h(
      "p",
      {},
      "Chat bots call cuebot for your channel with this key. Keep it secret: anyone with it can run your commands.",
    ),
    h("div", { class: "row key-row" }, key, countdown),
    h(
      "div",
      { class: "row" },
      toggle.element,
      copy,
      h(
        "button",
        { type: "button", class: "secondary", id: "regenerate-key", onclick: () => void regenerate() },
        "Regenerate key…",
      ),
    ),
    out,
  );
}

function overlaySection(): HTMLElement {
  const out = h("div", { role: "status" });
  const rotate = async () => {
    const yes = await confirmDialog({
      title: "Make a new overlay link?",
      message: "Overlays that use the old link stop updating; paste the new link into OBS.",
      confirmLabel: "New link",
    });
    if (!yes) return;
    try {
      const { overlayToken } = await sendData<{ overlayToken: string }>(
        "POST",
        "/api/dashboard/security/rotate-overlay-token",
      );
      const url = `${window.location.origin}/overlay/${encodeURIComponent(overlayToken)}`;
      fill(
        out,
        h("p", {}, "New overlay link:"),
        h("code", { class: "line", id: "overlay-token-out" }, url),
        h(
          "button",
          { type: "button", class: "secondary small", onclick: () => void copyText(url, "The overlay link") },
          "Copy link",
        ),
      );
      announce("New overlay link made.");
    } catch (error) {
      fill(out, h("p", { class: "error-text" }, errorMessage(error)));
    }
  };
  return section(
    "Overlay link",
    h("p", {}, "The overlay link shows your published overlay and nothing else. Replace it if it leaked."),
    h(
      "button",
      { type: "button", class: "secondary", id: "rotate-overlay", onclick: () => void rotate() },
      "New overlay link…",
    ),
    out,
  );
}

function dataSection(app: App): HTMLElement {
  const out = h("p", { role: "alert", class: "error-text" });
  const login = app.session.user.login;
  const remove = async () => {
    const yes = await confirmDialog({
      title: "Delete your account?",
      message:
        "This deletes your account and all its data on this server, revokes cuebot's access to your Twitch account and logs you out everywhere. It cannot be undone.",
      confirmLabel: "Delete everything",
      danger: true,
      typeToConfirm: login,
    });
    if (!yes) return;
    try {
      await sendData("DELETE", "/api/dashboard/account");
      window.location.href = "/";
    } catch (error) {
      fill(out, errorMessage(error));
    }
  };
  return section(
    "Your data",
    h(
      "p",
      {},
      "Download everything cuebot keeps about your channel (profile, settings, overlay, activity, audit log; never keys or tokens), or delete it all.",
    ),
    h(
      "div",
      { class: "row" },
      h(
        "a",
        { class: "button secondary", id: "export", href: "/api/dashboard/export", download: "" },
        "Download my data",
      ),
      h(
        "button",
        { type: "button", class: "danger", id: "delete-account", onclick: () => void remove() },
        "Delete my account…",
      ),
    ),
    out,
  );
}

function sessionSection(app: App): HTMLElement {
  const u = app.session.user;
  return section(
    "Session",
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Channel"),
      h("dd", { id: "session-login" }, u.login),
      h("dt", {}, "Twitch user id"),
      h("dd", {}, u.id),
      h("dt", {}, "Time zone"),
      h("dd", { id: "session-timezone" }, u.timezone),
      h("dt", {}, "Valid until"),
      h("dd", {}, dateTime(app.session.tokenExpiresAt)),
    ),
  );
}

export const securityView: View = {
  id: "security",
  title: "Security",
  render(root, app) {
    fill(
      root,
      h("div", { class: "cards" }, keySection(), overlaySection(), sessionSection(app), dataSection(app)),
    );
  },
};
