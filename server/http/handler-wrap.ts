import type { MaybePromise } from "../core/maybe-promise.ts";

/** Elysia's fetch handler for a request (its general handler, or one of Bun's native routes). */
export type Handle = (request: Request) => MaybePromise<Response>;

/**
 * Elysia asks a plugin's `.wrap()` for the wrapped handler on every request, and wraps each of Bun's
 * native routes apart from its general handler: this makes one wrapper per handler, once, and hands
 * it back from then on.
 */
export function oncePerHandler(wrap: (handle: Handle) => Handle): (handle: Handle) => Handle {
  const wrapped = new WeakMap<Handle, Handle>();
  return (handle) => {
    let wrapper = wrapped.get(handle);
    if (wrapper === undefined) {
      wrapper = wrap(handle);
      wrapped.set(handle, wrapper);
    }
    return wrapper;
  };
}

/** Elysia types the handler it wraps as any function; it is a fetch handler. */
export function asHandle(elysiaHandle: unknown): Handle {
  return elysiaHandle as Handle;
}
