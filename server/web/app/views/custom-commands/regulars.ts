// Regulars (Nightbot's `regular` user level): the viewers the streamer lists, added by Twitch login
// (cuebot looks the login up on Twitch, as it keeps them by Twitch id) and removed.
import { errorMessage, getData, sendData } from "../../lib/api.ts";
import { confirmDialog } from "../../lib/dialog.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, textInput, validLocally } from "../../lib/form-fields.ts";
import { newestOnly } from "../../lib/latest.ts";
import { announce, load } from "../../lib/states.ts";
import { checkedBy, showRefusal } from "./fields.ts";
import type { RegularList } from "./model.ts";

const API = "/api/dashboard/regulars";
const LOGIN = /^@?[A-Za-z0-9_]{1,25}$/;

/** Loads the list again; `focus` names the regular whose Remove button gets focus (the heading when gone). */
type Reload = (focus?: string) => void;

/** The login listed next to `login` (after it, else before it). */
function neighbourOf(login: string): string | undefined {
  const row = document.querySelector<HTMLElement>(`#cc-regulars [data-login="${CSS.escape(login)}"]`);
  const next = (row?.nextElementSibling ?? row?.previousElementSibling) as HTMLElement | null | undefined;
  return next?.dataset.login;
}

async function removeRegular(login: string, reload: Reload): Promise<void> {
  const ok = await confirmDialog({
    title: `Remove ${login}?`,
    message: `${login} is no longer a regular: commands for regulars stop answering them.`,
    confirmLabel: "Remove",
  });
  if (!ok) return;
  try {
    await sendData("DELETE", `${API}/${encodeURIComponent(login)}`);
    announce(`${login} is no longer a regular.`);
    reload(neighbourOf(login) ?? login);
  } catch (error) {
    announce(`${login} was not removed. ${errorMessage(error)}`, "error");
  }
}

function renderRegulars(box: HTMLElement, list: RegularList, reload: Reload): void {
  if (list.items.length === 0) {
    fill(box, h("p", { class: "state state-empty" }, "No regulars yet."));
    return;
  }
  fill(
    box,
    h("p", { class: "muted" }, `${list.items.length} of ${list.limit} regulars`),
    h(
      "ul",
      { class: "cc-regulars" },
      list.items.map((regular) =>
        h(
          "li",
          { "data-login": regular.login },
          h("span", {}, regular.login),
          h(
            "button",
            {
              type: "button",
              class: "secondary small",
              "aria-label": `Remove ${regular.login}`,
              onclick: () => void removeRegular(regular.login, reload),
            },
            "Remove",
          ),
        ),
      ),
    ),
  );
}

function addForm(reload: Reload): HTMLElement {
  const fields: Field[] = [];
  const login = textInput("", 26, { placeholder: "viewer_anna", spellcheck: "false" });
  checkedBy(login, () =>
    login.value.trim() === "" || LOGIN.test(login.value.trim())
      ? ""
      : "A Twitch login is 1 to 25 letters, digits or _.",
  );
  login.required = true;
  const status = h("p", { class: "save-status", role: "status" });
  const form = h(
    "form",
    { class: "cc-regular-form", novalidate: true },
    field("login", "Twitch login", login, fields),
    h("button", { type: "submit" }, "Add regular"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    if (!validLocally(fields)) return;
    try {
      const added = await sendData<{ login: string; added: boolean }>("POST", API, {
        login: login.value.trim().replace(/^@/, ""),
      });
      login.value = "";
      const text = added.added ? `${added.login} is now a regular.` : `${added.login} was already a regular.`;
      fill(status, h("span", { class: "ok-text" }, text));
      announce(text);
      reload();
    } catch (error) {
      showRefusal(error, status, fields, "login");
    }
  });
  return h("div", {}, form, status);
}

/** The Regulars card: what the list is for, the add form and the list. */
export function regularsCard(): HTMLElement {
  const headingId = uid("cc-regulars");
  const heading = h("h2", { id: headingId, tabindex: -1 }, "Regulars");
  const box = h("div", { class: "cc-regulars-list" });
  // Only the newest answer is drawn, however a burst of reloads comes back.
  const newest = newestOnly();
  const reload: Reload = (focus) =>
    void load(
      box,
      () => newest(getData<RegularList>(API)),
      (list) => {
        renderRegulars(box, list, reload);
        if (focus === undefined) return;
        const button = box.querySelector<HTMLElement>(`[data-login="${CSS.escape(focus)}"] button`);
        (button ?? heading).focus();
      },
    );
  reload();
  return h(
    "section",
    { class: "card", id: "cc-regulars", "aria-labelledby": headingId },
    heading,
    h(
      "p",
      { class: "muted" },
      "Commands for “Regulars” answer these viewers, and VIPs, moderators and you. Moderators can also type ",
      h("code", {}, "!regulars add name"),
      " or ",
      h("code", {}, "!regulars delete name"),
      " in chat.",
    ),
    addForm(reload),
    box,
  );
}
