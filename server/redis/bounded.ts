import { StoreUnavailableError } from "../../db/store-unavailable.ts";

/**
 * Redis's answer to `operation`, or StoreUnavailableError when it fails or takes longer than
 * `timeoutMs`. node-redis's own command timeout and abort signal only cover the wait before a command
 * is written to the socket; a server that stops answering (frozen, or the network silently gone)
 * would hold the caller until TCP gives up, minutes later (verified with SIGSTOP). A command given up
 * on may still run on the server later; its reply is dropped.
 */
export async function answerWithin<T>(operation: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([operation, deadline]);
  } catch (error) {
    operation.catch(() => {}); // a late failure of an abandoned command is not news
    throw new StoreUnavailableError("redis", error);
  } finally {
    clearTimeout(timer);
  }
}
