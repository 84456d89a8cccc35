// The OBS view's settings form: on or off, who connects (cuebot, or the overlay page in OBS), the
// obs-websocket address and its password, each with a sentence saying what it is. The password is
// never sent back: the form says whether one is stored, and an empty field keeps it.
import { OBS_DEFAULT_URL, OBS_VIAS, type ObsVia } from "../../../../vocabulary.ts";
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, showServerError, textInput, validLocally } from "../../lib/form-fields.ts";
import type { Sequence } from "../../lib/poll.ts";
import { announce } from "../../lib/states.ts";
import type { ObsInfo } from "../../lib/types.ts";

export const OBS_PATH = "/api/dashboard/obs";
/** `data: {set}`: whether a password is stored (the settings never answer it). */
export const OBS_PASSWORD_PATH = "/api/dashboard/obs/password";

const VIA_TEXT: Readonly<Record<ObsVia, { label: string; hint: string }>> = {
  server: {
    label: "cuebot connects to OBS directly",
    hint: "For OBS on the machine cuebot runs on, or one cuebot can reach over the network.",
  },
  overlay: {
    label: "Through the overlay page in OBS",
    hint: "For a cuebot that runs elsewhere: your overlay link, open in OBS as a browser source, connects to OBS on your machine and carries out the OBS steps. The password reaches only that page.",
  },
};

interface Inputs {
  enabled: HTMLInputElement;
  via: Record<ObsVia, HTMLInputElement>;
  url: HTMLInputElement;
  password: HTMLInputElement;
  clear: HTMLInputElement;
}

function viaFieldset(inputs: Inputs): HTMLElement {
  return h(
    "fieldset",
    { id: "obs-via" },
    h("legend", {}, "Who connects"),
    OBS_VIAS.map((via) => {
      const hintId = uid("hint");
      inputs.via[via].setAttribute("aria-describedby", hintId);
      return h(
        "div",
        { class: "obs-via-choice" },
        h("label", { class: "check" }, inputs.via[via], ` ${VIA_TEXT[via].label}`),
        h("p", { class: "hint obs-via-hint", id: hintId }, VIA_TEXT[via].hint),
      );
    }),
  );
}

function inputsOf(info: ObsInfo): Inputs {
  const radio = (via: ObsVia) =>
    h("input", {
      type: "radio",
      name: "obs-via",
      value: via,
      checked: info.via === via,
      id: `obs-via-${via}`,
    });
  return {
    enabled: h("input", { type: "checkbox", id: "obs-enabled", checked: info.enabled }),
    via: { server: radio("server"), overlay: radio("overlay") },
    url: textInput(info.url, 2048, {
      id: "obs-url",
      spellcheck: "false",
      placeholder: OBS_DEFAULT_URL,
      required: true,
    }),
    password: h("input", { type: "password", id: "obs-password", autocomplete: "off", maxlength: 256 }),
    clear: h("input", { type: "checkbox", id: "obs-password-clear" }),
  };
}

/** The password's hint: whether one is stored, and where OBS shows it. */
function passwordHint(passwordSet: boolean, hint: HTMLElement, clearLine: HTMLElement): void {
  fill(
    hint,
    passwordSet
      ? h(
          "span",
          { id: "obs-password-set" },
          h("strong", {}, "A password is stored"),
          " (never shown). Leave this empty to keep it.",
        )
      : "None stored. In OBS: Tools → WebSocket Server Settings → Show Connect Info → Server Password.",
  );
  clearLine.hidden = !passwordSet;
}

function bodyOf(inputs: Inputs): Record<string, unknown> {
  const via = OBS_VIAS.find((v) => inputs.via[v].checked) ?? "server";
  const body: Record<string, unknown> = {
    enabled: inputs.enabled.checked,
    url: inputs.url.value.trim(),
    via,
  };
  if (inputs.clear.checked) body.password = "";
  else if (inputs.password.value !== "") body.password = inputs.password.value;
  return body;
}

/** The form; `drawn` hears what the save answered (state and names), ordered against the view's polls by `sequence`. */
export function settingsCard(
  info: ObsInfo,
  passwordSet: boolean,
  sequence: Sequence,
  drawn: (info: ObsInfo) => void,
): HTMLElement {
  let stored = passwordSet;
  const headingId = uid("obs-settings");
  const fields: Field[] = [];
  const inputs = inputsOf(info);
  const hint = h("span", {});
  const clearLine = h(
    "label",
    { class: "check" },
    inputs.clear,
    " Remove the stored password (OBS without authentication)",
  );
  passwordHint(stored, hint, clearLine);
  const status = h("p", { class: "save-status", role: "status" });
  const submit = h("button", { type: "submit", id: "obs-save" }, "Save");
  const form = h(
    "form",
    { class: "obs-form", novalidate: true, "aria-labelledby": headingId },
    h("label", { class: "check switch" }, inputs.enabled, " On: cuebot uses OBS for your actions"),
    h(
      "p",
      { class: "hint obs-enabled-hint" },
      "Off: nothing connects to OBS, and an action's OBS steps fail saying so.",
    ),
    viaFieldset(inputs),
    field(
      "url",
      "obs-websocket address",
      inputs.url,
      fields,
      document.createTextNode(
        `In OBS: Tools → WebSocket Server Settings → Show Connect Info. ws:// or wss://; on the same machine ${OBS_DEFAULT_URL}.`,
      ),
    ),
    field("password", "Password", inputs.password, fields, hint),
    clearLine,
    h("div", { class: "row" }, submit),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    if (!validLocally(fields)) return;
    const ticket = sequence.ask();
    submit.disabled = true;
    try {
      const body = bodyOf(inputs);
      const saved = await sendData<ObsInfo>("PUT", OBS_PATH, body);
      // What the PUT did to the password: "" removed it, a new one is stored, none sent kept it.
      if (typeof body.password === "string") stored = body.password !== "";
      inputs.password.value = "";
      inputs.clear.checked = false;
      passwordHint(stored, hint, clearLine);
      fill(status, h("span", { class: "ok-text" }, "Saved."));
      announce("OBS settings saved.");
      if (sequence.accept(ticket)) drawn(saved);
    } catch (error) {
      showServerError(error, status, fields);
      announce(`Not saved. ${errorMessage(error)}`, "error");
    } finally {
      submit.disabled = false;
    }
  });
  return h(
    "section",
    { class: "card", id: "obs-settings", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Settings"),
    form,
  );
}
