// Keeping a panel current while its view is open: a poll that stops by itself once the view is gone,
// and "newest answer wins" for a panel reloaded often (a slow old answer never overwrites a newer one).

/** Calls `fn` every `ms` while `root` is in the page; stops by itself once it is gone. */
export function every(root: HTMLElement, ms: number, fn: () => void): void {
  const timer = window.setInterval(() => {
    if (!root.isConnected) window.clearInterval(timer);
    else fn();
  }, ms);
}

/**
 * Wraps a loader so only the answer to the latest call is used: an earlier call that answers later
 * resolves to null (its caller draws nothing).
 */
export function newestWins<T>(fetcher: () => Promise<T>): () => Promise<T | null> {
  let asked = 0;
  return async () => {
    asked += 1;
    const mine = asked;
    const answer = await fetcher();
    return mine === asked ? answer : null;
  };
}
