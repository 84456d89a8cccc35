// Only the newest of a burst of requests for the same panel is drawn: a list reloaded twice, a search
// typed on. Each request is numbered; an older one's answer (or failure) never settles, so whatever
// waits on it (lib/states.ts' `load`, a `.then`) leaves the panel to the newest.

/** A tracker: `newest(work)` settles as `work` does, or never when a newer request was tracked meanwhile. */
export function newestOnly(): <T>(work: Promise<T>) => Promise<T> {
  let asked = 0;
  return async <T>(work: Promise<T>): Promise<T> => {
    const ticket = ++asked;
    try {
      const answer = await work;
      if (ticket === asked) return answer;
    } catch (error) {
      if (ticket === asked) throw error;
    }
    return new Promise<T>(() => {});
  };
}
