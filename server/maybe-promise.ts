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

/** Both values: at once when both are here, else once both have arrived. */
export function bothOf<A, B>(a: MaybePromise<A>, b: MaybePromise<B>): MaybePromise<[A, B]> {
  if (a instanceof Promise || b instanceof Promise) return Promise.all([a, b]);
  return [a, b];
}
