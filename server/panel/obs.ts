import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { readObs } from "../../db/obs.ts";
import { notFound } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import { changeObs, obsPasswordStored, obsView } from "../obs/dashboard.ts";
import type { Context } from "../runtime.ts";
import { OBS_DEFAULT_URL, OBS_VIAS, type ObsVia } from "../vocabulary.ts";
import {
  bodyObject,
  booleanField,
  fieldError,
  type JsonObject,
  panelDetail,
  textField,
} from "./chat-bot-input.ts";

/**
 * The dashboard's OBS connection (issue 37; CONTRACT §6 "Actions"): its settings and what it sees
 * (state, OBS's version, scene and input names). The password is stored sealed and never answered.
 * The work is obs/dashboard.ts's; this file reads and shapes.
 */

const URL_LENGTH = 2_048;
const PASSWORD_LENGTH = 256;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function panelData(ctx: Context, account: Account) {
  const view = await obsView(ctx, account.id);
  return { ...view, since: iso(view.since) };
}

function urlField(fields: JsonObject): string | undefined {
  const text = textField(fields, "url");
  if (text === undefined) return undefined;
  let url: URL | null = null;
  try {
    url = text.length <= URL_LENGTH && !/\s/.test(text) ? new URL(text) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "ws:" && url.protocol !== "wss:") || url.hostname === "")
    throw fieldError("body field", "url", `must be a ws:// or wss:// address, like ${OBS_DEFAULT_URL}.`);
  return text;
}

function viaField(fields: JsonObject): ObsVia | undefined {
  const text = textField(fields, "via");
  if (text === undefined) return undefined;
  const via = OBS_VIAS.find((name) => name === text);
  if (!via) throw fieldError("body field", "via", `must be one of ${OBS_VIAS.join(", ")}.`);
  return via;
}

/** The password: undefined keeps the stored one, "" clears it (null). */
function passwordField(fields: JsonObject): string | null | undefined {
  const text = textField(fields, "password");
  if (text === undefined) return undefined;
  if ([...text].length > PASSWORD_LENGTH)
    throw fieldError("body field", "password", `must be at most ${PASSWORD_LENGTH} characters.`);
  return text === "" ? null : text;
}

/** The settings a PUT asks for, every field checked before anything is stored; absent ones kept. */
async function settingsOf(ctx: Context, account: Account, body: unknown) {
  const fields = bodyObject(
    body,
    ["enabled", "url", "password", "via"],
    `{"enabled": true, "url": "${OBS_DEFAULT_URL}", "password": "…", "via": "server"}`,
  );
  const enabled = booleanField(fields, "enabled");
  const url = urlField(fields);
  const password = passwordField(fields);
  const via = viaField(fields);
  const stored = await readObs(ctx.db, ctx.secrets, account.id);
  return {
    enabled: enabled ?? stored?.enabled ?? false,
    url: url ?? stored?.url ?? OBS_DEFAULT_URL,
    via: via ?? stored?.via ?? "server",
    password,
  };
}

const DATA =
  "`data: {enabled, url, via, state, since, reason, obsVersion, scenes, sources}`. `state`: off, connecting, connected, auth_failed (wrong password), unreachable or error, with `reason` saying what to do; while connected `obsVersion` is OBS Studio's version and `scenes` and `sources` OBS's scene and input names. The password is never returned.";

const PROGRAM =
  "`data: {scene, sources: [{name, visible, text}]}`: the simulated OBS's program scene and its sources, top first (`text` a text source's text, else null).";

/** The demo's simulated OBS as a visitor would see its window; 404 outside `serve --demo`. */
function demoProgram(ctx: Context) {
  if (!ctx.demoObs) throw notFound("The simulated OBS exists in demo mode only (cuebot serve --demo).");
  return ctx.demoObs.program();
}

export function obsPanelRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-obs", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/obs",
      async ({ principal: { account } }) => ({ status: 200 as const, data: await panelData(ctx, account) }),
      { detail: panelDetail("The OBS connection: its settings, state, and OBS's scenes and sources", DATA) },
    )
    .get(
      "/obs/password",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { set: await obsPasswordStored(ctx, account.id) },
      }),
      {
        detail: panelDetail(
          "Whether an OBS password is stored",
          "`data: {set}`: true when a password is stored (it is never returned), for the dashboard's form.",
        ),
      },
    )
    .get("/demo/obs", () => ({ status: 200 as const, data: demoProgram(ctx) }), {
      detail: panelDetail("Demo mode only: the simulated OBS's program scene and its sources", PROGRAM),
    })
    .put(
      "/obs",
      async ({ principal: { account }, body }) => {
        await changeObs(ctx, account.id, await settingsOf(ctx, account, body));
        return { status: 200 as const, data: await panelData(ctx, account) };
      },
      {
        body: t.Unknown({
          description: `\`{"enabled": true, "url": "${OBS_DEFAULT_URL}", "password": "…", "via": "server"}\`: \`url\` ws:// or wss:// (default ${OBS_DEFAULT_URL}); \`password\` obs-websocket's (Tools → WebSocket Server Settings), stored sealed, omitted keeps the stored one, "" clears it; \`via\` server (cuebot connects) or overlay (the overlay page in OBS connects). A field left out keeps its value. A bad field → 400 naming it, nothing changed.`,
        }),
        detail: panelDetail("Connect cuebot to OBS, or change or turn off the connection", DATA),
      },
    );
}
