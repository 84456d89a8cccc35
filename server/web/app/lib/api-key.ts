// The streamer's API key is fetched only when they click something that needs it (reveal, copy, test),
// kept in memory for a short while, and forgotten again.
import { sendData } from "./api.ts";
import { type Attrs, h } from "./dom.ts";

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

/**
 * Shows `key` in `target` for REVEAL_SECONDS with a countdown in `countdown`, then masks it again and
 * calls `onHidden`. The function returned masks it at once (Hide).
 */
export function showForAWhile(
  target: Element,
  countdown: Element,
  key: string,
  onHidden: () => void,
): () => void {
  let left = REVEAL_SECONDS;
  target.textContent = key;
  countdown.textContent = `hidden again in ${left} s`;
  let timer = 0;
  const hide = () => {
    if (timer === 0) return;
    window.clearInterval(timer);
    timer = 0;
    target.textContent = KEY_MASK;
    countdown.textContent = "";
    onHidden();
  };
  timer = window.setInterval(() => {
    left -= 1;
    if (left > 0 && target.isConnected) countdown.textContent = `hidden again in ${left} s`;
    else hide();
  }, 1000);
  return hide;
}

/** A button that reveals the key and, while it shows, hides it: its label says which it does now. */
export interface RevealButton {
  element: HTMLButtonElement;
  /** The key shows now (the button becomes Hide). */
  shown(): void;
  /** The key is masked again (the button becomes Reveal). */
  hidden(): void;
}

export function revealButton(
  attrs: Attrs,
  labels: { reveal: string; hide: string },
  actions: { reveal(): Promise<void>; hide(): void },
): RevealButton {
  const element = h("button", { type: "button", ...attrs }, labels.reveal);
  let showing = false;
  const set = (now: boolean) => {
    showing = now;
    element.textContent = now ? labels.hide : labels.reveal;
  };
  element.addEventListener("click", () => {
    if (showing) actions.hide();
    else void actions.reveal();
  });
  return { element, shown: () => set(true), hidden: () => set(false) };
}
