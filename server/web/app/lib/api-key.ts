// The streamer's API key is fetched only when they click something that needs it (reveal, copy, test),
// kept in memory for a short while, and forgotten again.
import { sendData } from "./api.ts";

export const REVEAL_SECONDS = 30;
export const KEY_MASK = "••••••••-••••-••••-••••-••••••••••••";

let cached: { key: string; until: number } | null = null;

export async function revealKey(): Promise<string> {
  if (cached && cached.until > Date.now()) return cached.key;
  const { apiKey } = await sendData<{ apiKey: string }>("POST", "/api/dashboard/security/reveal-key");
  remember(apiKey);
  return apiKey;
}

export function remember(key: string): void {
  cached = { key, until: Date.now() + REVEAL_SECONDS * 1000 };
}

export function forgetKey(): void {
  cached = null;
}

/** Shows `key` in `target` for REVEAL_SECONDS with a countdown in `countdown`, then masks it again. */
export function showForAWhile(
  target: Element,
  countdown: Element,
  key: string,
  onHidden: () => void,
): () => void {
  let left = REVEAL_SECONDS;
  target.textContent = key;
  countdown.textContent = `hidden again in ${left} s`;
  const timer = window.setInterval(() => {
    left -= 1;
    if (left > 0 && target.isConnected) {
      countdown.textContent = `hidden again in ${left} s`;
      return;
    }
    window.clearInterval(timer);
    target.textContent = KEY_MASK;
    countdown.textContent = "";
    onHidden();
  }, 1000);
  return () => window.clearInterval(timer);
}
