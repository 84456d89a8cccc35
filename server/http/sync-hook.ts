/**
 * Marks a lifecycle hook as synchronous for Elysia. Elysia decides whether to `await` a hook by
 * reading its source text (`async`, `await`, `return f(` or `=> f(` anywhere in it), and in the
 * minified binary almost every function reads that way (`=>{ctx.check(`), so every hook cost a
 * microtask per request and made the whole request path async. Given as `{ fn, isAsync: false }`,
 * Elysia takes the hook's own word (elysia/dist/compose.mjs, isAsync). Only for hooks that never
 * return a promise; the cast is what that shape takes from Elysia's types.
 */
export function syncHook<F extends (...args: never[]) => unknown>(fn: F): F {
  return hookOf(fn, false);
}

/**
 * A hook that is synchronous unless `async` says it may return a promise (a shared limiter's check
 * travels to Redis): Elysia then awaits it. The in-process request path stays free of microtasks.
 */
export function hookOf<F extends (...args: never[]) => unknown>(fn: F, async: boolean): F {
  return { fn, isAsync: async } as unknown as F;
}
