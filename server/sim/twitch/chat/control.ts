import { json, readJsonObject } from "../helix/http.ts";
import { type SayInput, say } from "./lines.ts";
import type { ChatState } from "./state.ts";

/**
 * `/_sim/chat/*`: the inject hook over HTTP, for the demo and browser tests (reference/twitch-chat.md
 * §7.4). POST `say` types a line, GET `lines?channel=` lists a channel's lines. Null for other paths.
 */
export async function handleChatControl(
  state: ChatState,
  request: Request,
  url: URL,
): Promise<Response | null> {
  if (url.pathname === "/_sim/chat/say" && request.method === "POST") {
    const body = (await readJsonObject(request)) as SayInput | null;
    if (!body) return json(400, { error: "body must be a JSON object" });
    if (typeof body.channel !== "string" || typeof body.user !== "string" || typeof body.text !== "string") {
      return json(400, { error: "channel, user and text are required strings" });
    }
    try {
      return json(200, { message_id: say(state, body) });
    } catch (error) {
      return json(404, { error: (error as Error).message });
    }
  }
  if (url.pathname === "/_sim/chat/lines" && request.method === "GET") {
    return json(200, { data: state.lines.get((url.searchParams.get("channel") ?? "").toLowerCase()) ?? [] });
  }
  return null;
}
