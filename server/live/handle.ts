import { ChatLineStages, LiveHooks } from "./hooks.ts";
import type { LiveSessions } from "./sessions.ts";
import type { StreamState } from "./stream-state.ts";

/**
 * The live layer as every feature reads it (`ctx.live`): its hooks and chat-line stages (bound once,
 * when the runtime is built), and the sessions `serve` runs on this instance (started with native
 * chat, chat/manager.ts; with Redis, on the chat lease holder), or none.
 */
export class LiveHandle {
  readonly hooks = new LiveHooks();
  readonly chatStages = new ChatLineStages();
  #sessions: LiveSessions | null = null;

  /** From now on `sessions` answer. */
  useLive(sessions: LiveSessions): void {
    this.#sessions = sessions;
  }

  /** Nothing answers any more (stopped or handed over), unless another owner started since. */
  release(sessions: LiveSessions): void {
    if (this.#sessions === sessions) this.#sessions = null;
  }

  /** Whether the channel is live as heard over EventSub on this instance, or null (not heard). */
  streamState(accountId: number): StreamState | null {
    return this.#sessions?.streams.get(accountId) ?? null;
  }
}
