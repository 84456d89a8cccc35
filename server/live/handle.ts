import { ChatLineStages, LiveHooks } from "./hooks.ts";
import type { StreamState, StreamStates } from "./stream-state.ts";

/**
 * The live layer as every feature reads it (`ctx.live`): its hooks and chat-line stages, and the
 * stream states of the sessions `serve` runs on this instance (started with native chat,
 * chat/manager.ts; with Redis, on the chat lease holder), or none.
 */
export class LiveHandle {
  readonly hooks = new LiveHooks();
  readonly chatStages = new ChatLineStages();
  #streams: StreamStates | null = null;

  /** From now on the running sessions' stream states answer (live/sessions.ts `streams`). */
  useLive(streams: StreamStates): void {
    this.#streams = streams;
  }

  /** Nothing answers any more (stopped or handed over), unless another owner started since. */
  release(streams: StreamStates): void {
    if (this.#streams === streams) this.#streams = null;
  }

  /** Whether the channel is live as heard over EventSub on this instance, or null (not heard). */
  streamState(accountId: number): StreamState | null {
    return this.#streams?.get(accountId) ?? null;
  }
}
