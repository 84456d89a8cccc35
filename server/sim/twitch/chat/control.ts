import { json, readJsonObject } from "../helix/http.ts";
import { type SayInput, trySay } from "./lines.ts";
import type { ChatState } from "./state.ts";

/**
 * `/_sim/chat/*`: the inject hook over HTTP, for the demo and browser tests (reference/twitch-chat.md
 * §7.4). POST `say` types a line (the fields of `SayInput`) and answers its `message_id`, or
 * `message_id: null` with `refused: {code, message}` when the room refuses it; GET `lines?channel=`
 * lists a channel's lines, a removed one with `deleted: true`. Null for other paths.
 */
export async function handleChatControl(
  state: ChatState,
  request: Request,
  url: URL,
): Promise<Response | null> {
  if (url.pathname === "/_sim/chat/say" && request.method === "POST") {
    const body = await readJsonObject(request);
    if (!body) return json(400, { error: "body must be a JSON object" });
    const input = readSayInput(body);
    if (typeof input === "string") return json(400, { error: input });
    try {
      const result = trySay(state, input);
      return json(200, { message_id: result.messageId, refused: result.refused });
    } catch (error) {
      return json(404, { error: (error as Error).message });
    }
  }
  if (url.pathname === "/_sim/chat/lines" && request.method === "GET") {
    return json(200, { data: state.lines.get((url.searchParams.get("channel") ?? "").toLowerCase()) ?? [] });
  }
  return null;
}

const isStringList = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === "string");

const isBadgeList = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (b) =>
      typeof b === "object" &&
      b !== null &&
      ["set_id", "id", "info"].every((k) => typeof (b as Record<string, unknown>)[k] === "string"),
  );

/** The fields a `say` body may have, each with its check. */
const OPTIONAL_FIELDS: Record<string, (value: unknown) => boolean> = {
  badges: isBadgeList,
  replyParentMessageId: (v) => typeof v === "string",
  emotes: isStringList,
  sourceChannel: (v) => typeof v === "string",
  sourceBadges: isBadgeList,
  sourceOnly: (v) => typeof v === "boolean",
};

/** A `say` body as SayInput, or what is wrong with it. */
function readSayInput(body: Record<string, unknown>): SayInput | string {
  if (typeof body.channel !== "string" || typeof body.user !== "string" || typeof body.text !== "string") {
    return "channel, user and text are required strings";
  }
  for (const [field, valid] of Object.entries(OPTIONAL_FIELDS)) {
    if (body[field] !== undefined && !valid(body[field])) return `${field} is not valid`;
  }
  return body as unknown as SayInput;
}
