// Commands: every setting the panel API accepts, per command: on/off, cooldown, the shoutout template
// (placeholders listed, live preview through the test-run endpoint), the magic 8-ball's answers, the
// roulette's settings. Errors appear at the field; a failed save keeps what was typed.
import { ApiError, errorMessage, getData, sendData } from "../lib/api.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { announce, load } from "../lib/states.ts";
import type { CommandInfo } from "../lib/types.ts";
import type { View } from "../view.ts";

const MAX_COOLDOWN = 3600;
const MAX_TIMEOUT = 1_209_600;
const SHOUTOUT_PLACEHOLDERS: [string, string][] = [
  ["{name}", "their display name"],
  ["{game}", "the category they last streamed"],
  ["{title}", "their stream title"],
  ["{link}", "their channel link"],
];

/** What the test run asks, per command, and an example for the demo channel. */
const TEST_INPUT: Record<string, { param: string; label: string; demo: string }> = {
  followage: { param: "user", label: "Viewer", demo: "viewer_anna" },
  shoutout: { param: "user", label: "Channel to shout out", demo: "otherstreamer" },
  magic8: { param: "question", label: "Question", demo: "Will we win tonight?" },
  roulette: { param: "user", label: "Who pulls the trigger", demo: "viewer_anna" },
  dice: { param: "sides", label: "Sides", demo: "20" },
};

interface Field {
  /** The API's name for it (`cooldownSeconds`, `options.message`, `options.answers.2`). */
  path: string;
  input: HTMLInputElement | HTMLTextAreaElement;
  error: HTMLElement;
}

function field(
  path: string,
  label: string,
  input: HTMLInputElement | HTMLTextAreaElement,
  fields: Field[],
  hint?: Node,
): HTMLElement {
  const error = h("span", { class: "field-error", id: uid("err") });
  const hintId = hint ? uid("hint") : null;
  input.setAttribute("aria-describedby", [error.id, hintId].filter(Boolean).join(" "));
  input.dataset.field = path;
  fields.push({ path, input, error });
  if (!input.id) input.id = uid("f");
  return h(
    "div",
    { class: "field" },
    h("label", { for: input.id }, label),
    input,
    hint ? h("div", { class: "hint", id: hintId }, hint) : null,
    error,
  );
}

function setError(f: Field, message: string): void {
  f.error.textContent = message;
  f.input.setAttribute("aria-invalid", "true");
}

function clearErrors(fields: Field[]): void {
  for (const f of fields) {
    f.error.textContent = "";
    f.input.removeAttribute("aria-invalid");
  }
}

/** The field a server message names: `"cooldownSeconds"` or `option "answers.3"`. */
function fieldOf(message: string, fields: Field[]): Field | undefined {
  const option = /option "([^"]+)"/.exec(message)?.[1];
  if (option)
    return (
      fields.find((f) => f.path === `options.${option}`) ??
      fields.find((f) => f.path.startsWith(`options.${option.split(".")[0]}`))
    );
  const body = /field "([^"]+)"/.exec(message)?.[1];
  return body ? fields.find((f) => f.path === body) : undefined;
}

function answersEditor(
  initial: string[],
  fields: Field[],
  changed: () => void,
): { element: HTMLElement; value: () => string[] } {
  const list = h("ol", { class: "answers" });
  const rows: { input: HTMLInputElement; row: HTMLElement }[] = [];
  const renumber = () => {
    // Fields are re-registered so server errors ("answers.3") still find the right input.
    for (let i = fields.length - 1; i >= 0; i--)
      if (fields[i]!.path.startsWith("options.answers.")) fields.splice(i, 1);
    rows.forEach((r, i) => {
      r.input.setAttribute("aria-label", `Answer ${i + 1}`);
      const error = r.row.querySelector<HTMLElement>(".field-error")!;
      r.input.dataset.field = `options.answers.${i}`;
      fields.push({ path: `options.answers.${i}`, input: r.input, error });
    });
  };
  const addRow = (text: string) => {
    const input = h("input", { type: "text", value: text, maxlength: 200, required: true });
    const error = h("span", { class: "field-error", id: uid("err") });
    input.setAttribute("aria-describedby", error.id);
    input.addEventListener("input", changed);
    const row = h("li", { class: "answer" }, input);
    const remove = h("button", { type: "button", class: "secondary small" }, "Remove");
    remove.addEventListener("click", () => {
      if (rows.length === 1) {
        error.textContent = "The 8-ball needs at least one answer.";
        return;
      }
      const index = rows.findIndex((r) => r.row === row);
      rows.splice(index, 1);
      row.remove();
      renumber();
      changed();
      rows[Math.min(index, rows.length - 1)]?.input.focus();
    });
    row.append(remove, error);
    rows.push({ input, row });
    list.append(row);
    renumber();
    return input;
  };
  for (const a of initial) addRow(a);
  const add = h("button", { type: "button", class: "secondary small" }, "Add an answer");
  add.addEventListener("click", () => {
    if (rows.length >= 100) return;
    addRow("").focus();
    changed();
  });
  const legend = uid("answers");
  return {
    element: h(
      "fieldset",
      { class: "answers-box", "aria-labelledby": legend },
      h("legend", { id: legend }, "Answers (1 to 100; one is picked at random)"),
      list,
      add,
    ),
    value: () => rows.map((r) => r.input.value),
  };
}

function numberInput(value: number, min: number, max: number): HTMLInputElement {
  return h("input", { type: "number", inputmode: "numeric", value, min, max, step: 1, required: true });
}

function checkbox(checked: boolean): HTMLInputElement {
  return h("input", { type: "checkbox", checked });
}

function commandCard(info: CommandInfo, demo: boolean, platformShoutout: boolean): HTMLElement {
  const fields: Field[] = [];
  const status = h("p", { class: "save-status", role: "status" });
  const preview = h("div", { class: "preview", role: "status", "aria-live": "polite" });
  const dirty = h("span", { class: "muted unsaved", hidden: true }, "Unsaved changes");
  const changed = () => {
    dirty.hidden = false;
  };
  const enabled = checkbox(info.enabled);
  const cooldown = numberInput(info.cooldownSeconds, 0, MAX_COOLDOWN);
  const parts: Node[] = [];
  let options: () => Record<string, unknown> = () => ({});
  let livePreview: HTMLTextAreaElement | null = null;

  if (info.command === "shoutout") {
    const message = h(
      "textarea",
      { rows: 3, maxlength: 300, required: true },
      String(info.options.message ?? ""),
    );
    livePreview = message;
    const platform = checkbox(Boolean(info.options.platformShoutout));
    parts.push(
      field(
        "options.message",
        "Chat message",
        message,
        fields,
        h(
          "span",
          {},
          "Placeholders: ",
          SHOUTOUT_PLACEHOLDERS.flatMap(([p, what], i) => [i ? ", " : "", h("code", {}, p), ` ${what}`]),
        ),
      ),
      h(
        "label",
        { class: "check" },
        platform,
        h(
          "span",
          {},
          "Also send Twitch's own shoutout",
          platformShoutout
            ? null
            : h("span", { class: "hint block" }, "needs the moderator:manage:shoutouts scope at login"),
        ),
      ),
    );
    options = () => ({ message: message.value, platformShoutout: platform.checked });
  }
  if (info.command === "magic8") {
    const answers = answersEditor((info.options.answers as string[] | undefined) ?? [], fields, changed);
    parts.push(answers.element);
    options = () => ({ answers: answers.value() });
  }
  if (info.command === "roulette") {
    const timeout = numberInput(Number(info.options.timeoutSeconds), 1, MAX_TIMEOUT);
    const chambers = numberInput(Number(info.options.chambers), 2, 12);
    const protect = checkbox(Boolean(info.options.protectSubscribers));
    parts.push(
      h(
        "div",
        { class: "field-row" },
        field(
          "options.timeoutSeconds",
          "Timeout (seconds)",
          timeout,
          fields,
          document.createTextNode("1 s to 2 weeks"),
        ),
        field(
          "options.chambers",
          "Chambers",
          chambers,
          fields,
          document.createTextNode("one in this many is loaded (2–12)"),
        ),
      ),
      h("label", { class: "check" }, protect, " Subscribers are safe too (never timed out)"),
    );
    options = () => ({
      timeoutSeconds: timeout.valueAsNumber,
      chambers: chambers.valueAsNumber,
      protectSubscribers: protect.checked,
    });
  }
  if ("region" in info.defaults) {
    // A game command: the streamer's player, set once (the game API's region, name and tag).
    const listId = uid("regions");
    const region = h("input", {
      type: "text",
      value: String(info.options.region ?? ""),
      list: listId,
      required: true,
      maxlength: 5,
      autocomplete: "off",
    });
    const name = h("input", {
      type: "text",
      value: String(info.options.name ?? ""),
      maxlength: 16,
      autocomplete: "off",
    });
    const tag = h("input", {
      type: "text",
      value: String(info.options.tag ?? ""),
      maxlength: 5,
      autocomplete: "off",
    });
    const type = "type" in info.defaults ? numberInput(Number(info.options.type), 1, 3) : null;
    parts.push(
      h(
        "datalist",
        { id: listId },
        ["na", "eu", "ap", "kr", "latam", "br"].map((r) => h("option", { value: r })),
      ),
      h(
        "div",
        { class: "field-row" },
        field("options.name", "Player name", name, fields),
        field(
          "options.tag",
          "Tag",
          tag,
          fields,
          document.createTextNode(demo ? "demo: Kestrel #EUW in eu" : "after the #"),
        ),
        field(
          "options.region",
          "Region",
          region,
          fields,
          document.createTextNode("na, eu, ap, kr, latam or br"),
        ),
      ),
    );
    if (type) parts.push(field("options.type", "Detail (1–3, as the game API's type)", type, fields));
    options = () => ({
      region: region.value.trim().toLowerCase(),
      name: name.value.trim(),
      tag: tag.value.trim(),
      ...(type ? { type: type.valueAsNumber } : {}),
    });
  }
  const hasOptions = Object.keys(info.defaults).length > 0;
  const settings = () => ({
    enabled: enabled.checked,
    cooldownSeconds: cooldown.valueAsNumber,
    ...(hasOptions ? { options: options() } : {}),
  });

  /** The browser's own checks (required, min, max), shown at the field like the server's. */
  const validLocally = (): boolean => {
    clearErrors(fields);
    let ok = true;
    for (const f of fields) {
      if (!f.input.checkValidity()) {
        setError(f, f.input.validationMessage);
        if (ok) f.input.focus();
        ok = false;
      }
    }
    return ok;
  };
  const showServerError = (error: unknown, where: HTMLElement) => {
    const target =
      error instanceof ApiError && error.status === 400 ? fieldOf(error.message, fields) : undefined;
    if (target) {
      setError(target, error instanceof Error ? error.message : String(error));
      target.input.focus();
      fill(where);
    } else {
      fill(where, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };

  const testInput = TEST_INPUT[info.command];
  const testValue = testInput
    ? h("input", { type: "text", id: uid("t"), value: demo ? testInput.demo : "", autocomplete: "off" })
    : null;
  const runPreview = async () => {
    if (!validLocally()) return;
    fill(preview, h("span", { class: "muted" }, "Asking cuebot…"));
    const query =
      testInput && testValue?.value.trim()
        ? `?${testInput.param}=${encodeURIComponent(testValue.value.trim())}`
        : "";
    try {
      const reply = await sendData<{ text: string }>(
        "POST",
        `/api/dashboard/test/${info.command}${query}`,
        settings(),
      );
      fill(
        preview,
        h("span", { class: "chat-label" }, "Chat would show:"),
        h("q", { class: "chat-line" }, reply.text),
      );
    } catch (error) {
      showServerError(error, preview);
    }
  };
  let timer = 0;
  livePreview?.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void runPreview(), 700);
  });

  const form = h(
    "form",
    { class: "command-form", novalidate: true, "data-command": info.command },
    h("label", { class: "check switch" }, enabled, ` On: chat can use !${info.command}`),
    field("cooldownSeconds", "Cooldown (seconds, 0–3600)", cooldown, fields),
    ...parts,
    testValue && testInput
      ? h(
          "div",
          { class: "field" },
          h("label", { for: testValue.id }, `Test with: ${testInput.label}`),
          testValue,
        )
      : null,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit" }, "Save"),
      h("button", { type: "button", class: "secondary", onclick: () => void runPreview() }, "Try it"),
      dirty,
    ),
    status,
    preview,
  );
  form.addEventListener("input", (event) => {
    if (event.target !== testValue) changed();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    if (!validLocally()) return;
    try {
      await sendData("PUT", `/api/dashboard/commands/${info.command}`, settings());
      dirty.hidden = true;
      fill(status, h("span", { class: "ok-text" }, "Saved."));
      announce(`${info.command}: saved.`);
    } catch (error) {
      // What was typed stays in the form, so a fix and a second Save is all it takes.
      showServerError(error, status);
      announce(`${info.command}: not saved. ${errorMessage(error)}`, "error");
    }
  });
  const id = uid("cmd");
  return h(
    "section",
    { class: "card command", id: `command-${info.command}`, "aria-labelledby": id },
    h("h2", { id }, `!${info.command}`),
    h("p", { class: "muted" }, info.description),
    form,
  );
}

export const commandsView: View = {
  id: "commands",
  title: "Commands",
  render(root, app) {
    void load(
      root,
      () => Promise.all([getData<CommandInfo[]>("/api/dashboard/commands"), app.profile()]),
      ([commands, profile]) =>
        fill(
          root,
          h(
            "p",
            { class: "lead" },
            "Turn commands on or off, set cooldowns and change what the bot says. “Try it” runs the command with the settings in the form, before you save.",
          ),
          h(
            "div",
            { class: "cards" },
            commands.map((c) => commandCard(c, profile.demo, profile.features.platform_shoutout)),
          ),
        ),
    );
  },
};
