/**
 * Waits for `work` to settle, or `ms`, whichever comes first; never rejects. Shutdown uses it so a
 * database or service that does not answer cannot hold the server open.
 */
export async function settledWithin(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
