import { CHAT_EVENT_TYPES } from "../eventsub/state.ts";
import { actingModerator, canModerate, userById } from "../helix/access.ts";
import { helixError, json, missing, readJsonObject } from "../helix/http.ts";
import type { HelixCall, HelixRouteList } from "../helix/route.ts";
import { byId } from "./chatters.ts";
import { type ChatState, type SimChatSettings, settingsOf } from "./state.ts";

/**
 * Get and Update Chat Settings (reference/moderation.md §2.4): a channel's room modes, which Send
 * Chat Message and the chatters' own lines obey (room.ts). An update names only what changes; a mode
 * turned on without its duration gets the default, a mode turned off loses its duration.
 */

export function chatSettingsRoutes(state: ChatState): HelixRouteList {
  return [
    ["GET /chat/settings", { userToken: false, scopes: [], handle: (call) => getSettings(state, call) }],
    [
      "PATCH /chat/settings",
      {
        userToken: true,
        scopes: ["moderator:manage:chat_settings"],
        handle: (call) => updateSettings(state, call),
      },
    ],
  ];
}

type Mode = "follower_mode" | "slow_mode" | "non_moderator_chat_delay";
type Duration = "follower_mode_duration" | "slow_mode_wait_time" | "non_moderator_chat_delay_duration";

/** Each mode with a duration: its field, the values allowed, and the default when turned on without one. */
const DURATIONS: readonly {
  mode: Mode;
  field: Duration;
  valid: (n: number) => boolean;
  def: number | null;
}[] = [
  { mode: "follower_mode", field: "follower_mode_duration", valid: (n) => n >= 0 && n <= 129_600, def: 0 },
  { mode: "slow_mode", field: "slow_mode_wait_time", valid: (n) => n >= 3 && n <= 120, def: 30 },
  {
    mode: "non_moderator_chat_delay",
    field: "non_moderator_chat_delay_duration",
    valid: (n) => n === 2 || n === 4 || n === 6,
    def: null,
  },
];

const FLAGS = ["emote_mode", "subscriber_mode", "unique_chat_mode", ...DURATIONS.map((d) => d.mode)] as const;

/** The settings as Helix answers them; the chat delay only to one of the channel's moderators. */
function settingsBody(settings: SimChatSettings, broadcasterId: string, moderatorId: string | null) {
  const { non_moderator_chat_delay, non_moderator_chat_delay_duration, ...open } = settings;
  const data = moderatorId
    ? { ...open, non_moderator_chat_delay, non_moderator_chat_delay_duration, moderator_id: moderatorId }
    : open;
  return json(200, { data: [{ broadcaster_id: broadcasterId, ...data }] });
}

function getSettings(state: ChatState, call: HelixCall): Response {
  const broadcasterId = call.query.get("broadcaster_id");
  if (!broadcasterId) return missing("broadcaster_id");
  if (!userById(state.world, broadcasterId)) return helixError(400, "The ID in broadcaster_id is not valid.");
  const moderatorId = call.query.get("moderator_id");
  const privileged =
    moderatorId !== null &&
    moderatorId === call.caller.userId &&
    call.caller.scopes.some(
      (s) => s === "moderator:read:chat_settings" || s === "moderator:manage:chat_settings",
    ) &&
    canModerate(state.world, broadcasterId, moderatorId);
  return settingsBody(settingsOf(state, broadcasterId), broadcasterId, privileged ? moderatorId : null);
}

/** The settings after the update, or the 400 it gets (nothing changes then). */
function applyUpdate(current: SimChatSettings, body: Record<string, unknown>): SimChatSettings | Response {
  const next = { ...current };
  for (const flag of FLAGS) {
    const value = body[flag];
    if (value === undefined) continue;
    if (typeof value !== "boolean") return helixError(400, `The value in the ${flag} field is not valid.`);
    next[flag] = value;
  }
  for (const { mode, field, valid, def } of DURATIONS) {
    const value = body[field];
    if (value === undefined || value === null) {
      if (!next[mode]) next[field] = null;
      else if (body[mode] === true) next[field] = def;
      if (next[mode] && next[field] === null) return helixError(400, `The ${field} field is required.`);
      continue;
    }
    if (typeof value !== "number" || !Number.isInteger(value) || !valid(value) || !next[mode]) {
      return helixError(400, `The value in the ${field} field is not valid.`);
    }
    next[field] = value;
  }
  return next;
}

async function updateSettings(state: ChatState, call: HelixCall): Promise<Response> {
  const broadcasterId = call.query.get("broadcaster_id");
  if (!broadcasterId) return missing("broadcaster_id");
  const moderatorId = actingModerator(state.world, call, broadcasterId);
  if (moderatorId instanceof Response) return moderatorId;
  const body = await readJsonObject(call.request);
  if (!body) return helixError(400, "The request body is not valid JSON.");
  const next = applyUpdate(settingsOf(state, broadcasterId), body);
  if (next instanceof Response) return next;
  state.settings.set(broadcasterId, next);
  notifySettings(state, broadcasterId, next);
  return settingsBody(next, broadcasterId, moderatorId);
}

/** `channel.chat_settings.update` for the channel's chat readers. */
export function notifySettings(state: ChatState, broadcasterId: string, settings: SimChatSettings): void {
  const channel = byId(state.world, broadcasterId);
  if (!channel) return;
  state.eventsub.notify(CHAT_EVENT_TYPES.settingsUpdate, broadcasterId, {
    broadcaster_user_id: channel.id,
    broadcaster_user_login: channel.login,
    broadcaster_user_name: channel.display_name,
    emote_mode: settings.emote_mode,
    follower_mode: settings.follower_mode,
    follower_mode_duration_minutes: settings.follower_mode_duration,
    slow_mode: settings.slow_mode,
    slow_mode_wait_time_seconds: settings.slow_mode_wait_time,
    subscriber_mode: settings.subscriber_mode,
    unique_chat_mode: settings.unique_chat_mode,
  });
}
