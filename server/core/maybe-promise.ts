/**
 * A value now or later. The limiters answer synchronously in process and asynchronously from a shared
 * store (Redis); code between them and the request passes either on without making the in-process
 * path wait a microtask.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` now when the value is here, else once it arrives (a rejection passes through). */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Throws the error now, or rejects with it once it arrives. */
export function throwWhenReady(error: MaybePromise<Error>): never | Promise<never> {
  if (error instanceof Promise) {
    return error.then((ready) => {
      throw ready;
    });
  }
  throw error;
}

/**
 * Both values: at once when both are here, else once both have arrived. The second is asked for here
 * (`second()`), so that when it throws at once while the first is still on its way, the first's
 * eventual rejection is handled rather than left to crash the process as an unhandled one.
 */
export function bothOf<A, B>(first: MaybePromise<A>, second: () => MaybePromise<B>): MaybePromise<[A, B]> {
  let b: MaybePromise<B>;
  try {
    b = second();
  } catch (error) {
    if (first instanceof Promise) first.catch(() => {});
    throw error;
  }
  if (first instanceof Promise || b instanceof Promise) return Promise.all([first, b]);
  return [first, b];
}
