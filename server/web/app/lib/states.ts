// Every panel of every view goes through one loader, so loading, empty, error and rate-limited
// (429 with its retry time) look and behave the same everywhere.
import { ApiError, errorMessage } from "./api.ts";
import { fill, h } from "./dom.ts";

export interface LoadOptions<T> {
  /** What the panel shows while waiting. */
  loadingText?: string;
  /** When the data is there but has nothing to show: the sentence to show instead. */
  isEmpty?: (data: T) => boolean;
  emptyText?: string;
}

/** A 429 panel counts down to its Retry-After and then tries again by itself. */
function rateLimited(box: Element, error: ApiError, retry: () => void): void {
  let left = error.retryAfter ?? 5;
  const count = h("span", {}, String(left));
  fill(
    box,
    h(
      "div",
      { class: "state state-error", role: "alert" },
      h("p", {}, "Too many requests right now. Trying again in ", count, " s."),
      h("button", { type: "button", class: "secondary", onclick: () => retry() }, "Try now"),
    ),
  );
  const timer = window.setInterval(() => {
    left -= 1;
    if (!box.isConnected) {
      window.clearInterval(timer);
      return;
    }
    count.textContent = String(Math.max(left, 0));
    if (left <= 0) {
      window.clearInterval(timer);
      retry();
    }
  }, 1000);
}

export function showError(box: Element, error: unknown, retry: () => void): void {
  if (error instanceof ApiError && error.status === 429) {
    rateLimited(box, error, retry);
    return;
  }
  fill(
    box,
    h(
      "div",
      { class: "state state-error", role: "alert" },
      h("p", {}, errorMessage(error)),
      h("button", { type: "button", class: "secondary", onclick: () => retry() }, "Try again"),
    ),
  );
}

/** Loads `fetcher` into `box`, then `render`s it; failures show the reason and a way to retry. */
export async function load<T>(
  box: Element,
  fetcher: () => Promise<T>,
  render: (data: T) => void,
  options: LoadOptions<T> = {},
): Promise<void> {
  box.setAttribute("aria-busy", "true");
  fill(box, h("p", { class: "state state-loading" }, options.loadingText ?? "Loading…"));
  try {
    const data = await fetcher();
    fill(box);
    if (options.isEmpty?.(data))
      fill(box, h("p", { class: "state state-empty" }, options.emptyText ?? "Nothing yet."));
    else render(data);
  } catch (error) {
    showError(box, error, () => void load(box, fetcher, render, options));
  } finally {
    box.removeAttribute("aria-busy");
  }
}

/** Announces a result (saved, copied, failed) to everyone, screen readers included. */
export function announce(text: string, kind: "ok" | "error" = "ok"): void {
  const region = document.getElementById("toast");
  if (!region) return;
  fill(region, h("p", { class: `toast toast-${kind}` }, text));
  window.setTimeout(() => {
    if (region.textContent === text) fill(region);
  }, 6000);
}
