import type { Account } from "../../db/accounts.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import type { CoreContext } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { andThen } from "../core/maybe-promise.ts";
import { presentedCredentials } from "../http/auth.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { type StreamSlot, StreamSlots } from "./stream-slots.ts";

/** Proxies (nginx: 60 s) close quiet connections; a comment line every 15 s keeps the stream open. */
const HEARTBEAT_MS = 15_000;
/** Open streams per account and kind: a few scenes' browser sources; a leaked link cannot open hundreds. */
export const MAX_OVERLAY_STREAMS = 20;

/** What /docs says of the cap, on each stream route. */
export const STREAM_CAP_NOTE =
  `At most ${MAX_OVERLAY_STREAMS} streams of this kind are open per account on an instance. At that cap, a stream ` +
  "from a client address holding fewer of them than another address closes that address's oldest stream " +
  "(an IPv6 address counts by its /64), so streams held open from one address never keep another " +
  "address's overlay out; a stream from the address holding the most is refused with 429 `too_many_overlays`.";

/** What an overlay token's checks and streams read: the account directory, the limits (client address). */
export interface OverlayTokenContext extends Pick<CoreContext, "accounts"> {
  readonly limits: RateLimits;
}

/** Each hub's open streams, shared fairly between client addresses (stream-slots.ts). */
const SLOTS = new WeakMap<StreamHub, StreamSlots>();

function slotsOf(hub: StreamHub): StreamSlots {
  let slots = SLOTS.get(hub);
  if (!slots) {
    slots = new StreamSlots(MAX_OVERLAY_STREAMS);
    SLOTS.set(hub, slots);
  }
  return slots;
}

/** A slot for a new stream, or the 429 when the client's own address already fills the cap. */
function claimSlot(ctx: OverlayTokenContext, request: Request, account: Account, hub: StreamHub): StreamSlot {
  const slot = slotsOf(hub).claim(account.id, ctx.limits.clientIp.of(request));
  if (slot) return slot;
  throw new ApiError(
    429,
    "too_many_overlays",
    `This overlay link already has ${MAX_OVERLAY_STREAMS} open connections from your address; close unused browser sources.`,
  );
}

/** Frees the stream's slot when it ends. */
function releaseSlot(hub: StreamHub, accountId: number, slot: StreamSlot): () => void {
  return () => slotsOf(hub).release(accountId, slot);
}

/** One open overlay stream as its kind (state, alerts) writes to it. */
export interface OverlayStream {
  /** Sends an event block, once the token still opens the account; blocks go out in order. */
  write(text: string): void;
  /** Ends the stream (the client reconnects by itself). */
  end(): void;
  /** Whether it ended (the client left, the token was rotated, the server stops). */
  readonly closed: boolean;
  /** Runs when the stream ends (stop listening). */
  onClose(cleanup: () => void): void;
}

/** Where the streams of a kind are counted and told about a shutdown (OverlayHub, AlertHub). */
export interface StreamHub {
  connections(accountId: number): number;
  onShutdown(close: () => void): () => void;
}

/**
 * A Server-Sent Events response for an overlay token's account: at MAX_OVERLAY_STREAMS open ones,
 * it closes the oldest of an address holding more than the client's, or is refused (429); a
 * heartbeat comment every 15 s, ended at shutdown, and ended at the next write once the token was
 * rotated or the account deleted. `open` starts listening (it registers
 * its cleanup with onClose) and sends what the overlay missed; if it throws, the stream ends.
 */
export function overlayEventStream(
  ctx: OverlayTokenContext,
  request: Request,
  account: Account,
  hub: StreamHub,
  open: (stream: OverlayStream) => Promise<void>,
): Response {
  const slot = claimSlot(ctx, request, account, hub);
  const token = presentedCredentials(request).overlayToken ?? "";
  // A rotated token (panel or CLI) or a deleted account ends the stream at the next write or heartbeat.
  const stillAllowed = () =>
    andThen(ctx.accounts.byCredential("overlay-token", token), (found) => found?.id === account.id);
  const encoder = new TextEncoder();
  const cleanups: (() => void)[] = [releaseSlot(hub, account.id, slot)];
  const cleanup = () => {
    for (const fn of cleanups.splice(0)) fn();
  };
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const end = () => {
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      slot.close = end;
      const deliver = (text: string, allowed: boolean) => {
        if (closed) return;
        if (!allowed) return end();
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      // The check answers at once from the cache, or later from the database (after a change): a
      // write that has to wait holds back the ones after it, so the overlay sees them in order.
      let waiting = 0;
      let tail: Promise<void> = Promise.resolve();
      const write = (text: string): void => {
        const check = waiting === 0 ? stillAllowed() : tail.then(stillAllowed);
        if (!(check instanceof Promise)) {
          deliver(text, check);
          return;
        }
        waiting++;
        tail = check
          // A database that does not answer is no reason to end the stream: it goes on meanwhile.
          .then(
            (allowed) => deliver(text, allowed),
            (error: unknown) => (error instanceof StoreUnavailableError ? deliver(text, true) : end()),
          )
          .finally(() => {
            waiting--;
          });
      };
      write("retry: 3000\n\n");
      // Refused at once (the token was rotated meanwhile): nothing to listen for.
      if (closed) return;
      const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(heartbeat), hub.onShutdown(end));
      request.signal.addEventListener("abort", () => cleanup());
      const stream: OverlayStream = {
        write,
        end,
        get closed() {
          return closed;
        },
        onClose: (fn) => {
          if (closed) fn();
          else cleanups.push(fn);
        },
      };
      try {
        await open(stream);
      } catch {
        end();
      }
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
