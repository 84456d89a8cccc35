// "Try a line": what the filters would do to a line from a chatter of a given level, with the
// settings as saved; nothing is deleted, logged or counted as an offence.
import { sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, showServerError, textInput, validLocally } from "../../lib/form-fields.ts";
import { limitLength } from "../../lib/text-limit.ts";
import type { ModerationTestResult } from "../../lib/types.ts";
import { levelSelect, selectField } from "../custom-commands/fields.ts";
import type { UserLevel } from "../custom-commands/model.ts";
import { CHATTER_LABELS, testOutcomeText } from "./model.ts";

/** A chat message's length on Twitch. */
const LINE_LENGTH = 500;

export function tryLineCard(): HTMLElement {
  const headingId = uid("moderation-try");
  const fields: Field[] = [];
  const text = textInput("", 2000, { id: "moderation-try-text", required: true });
  const counter = limitLength(text, LINE_LENGTH);
  const level = levelSelect("everyone", CHATTER_LABELS);
  level.id = "moderation-try-level";
  const out = h("p", { class: "save-status", id: "moderation-try-out", role: "status" });
  const submit = h("button", { type: "submit", id: "moderation-try-run" }, "Try");
  const form = h(
    "form",
    { novalidate: true, "aria-label": "Try a line" },
    field("text", "A chat line", text, fields, counter),
    selectField("From", level),
    submit,
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(out);
    if (!validLocally(fields)) return;
    submit.disabled = true;
    try {
      const result = await sendData<ModerationTestResult>("POST", "/api/dashboard/moderation/test", {
        text: text.value,
        level: level.value as UserLevel,
      });
      fill(out, h("span", { class: result.caught ? "error-text" : "ok-text" }, testOutcomeText(result)));
    } catch (error) {
      showServerError(error, out, fields);
    } finally {
      submit.disabled = false;
    }
  });
  return h(
    "section",
    { class: "card", id: "moderation-try", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Try a line"),
    h(
      "p",
      { class: "muted" },
      "See what your saved filters would do to a message. Nothing is deleted or logged, and nobody's offences count.",
    ),
    form,
  );
}
