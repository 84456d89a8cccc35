// Browser tests: the real `cuebot serve --demo` process and Debian's Chromium through playwright-core.

import { afterAll, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ROOT = join(import.meta.dir, "..", "..");
export const haveChromium = existsSync(CHROMIUM);
/** Kept by CI (git-ignored): one PNG per view and viewport. */
export const SCREENSHOTS = join(ROOT, "test-artifacts", "screenshots");

export interface DemoServer {
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts `cuebot serve --demo` (or the given command) as a real process; resolves on "listening on". */
export async function startDemoServer(command?: string[]): Promise<DemoServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-e2e-"));
  const server: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn(
    [
      ...(command ?? ["bun", join(ROOT, "cli/main.ts")]),
      "serve",
      "--demo",
      "--port",
      "0",
      "--data-dir",
      dataDir,
    ],
    {
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", CUEBOT_LOG_FORMAT: "json" },
    },
  );
  const stop = async () => {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const reader = server.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value);
    const match = /listening on (http:\/\/[^"\s]+)/.exec(seen);
    if (match) {
      reader.releaseLock();
      return { base: match[1]!.replace("127.0.0.1", "localhost"), dataDir, stop };
    }
  }
  await stop();
  throw new Error(`the demo server did not start:\n${seen}`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** What a page did that it should not: console errors, uncaught exceptions, requests to other origins. */
export interface PageWatch {
  problems: string[];
}

export function watchPage(page: Page, base: string): PageWatch {
  const origin = new URL(base).origin;
  const watch: PageWatch = { problems: [] };
  page.on("console", (message) => {
    if (message.type() === "error") watch.problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => watch.problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("about:")) return;
    if (new URL(url).origin !== origin) watch.problems.push(`request to another origin: ${url}`);
  });
  return watch;
}

/** Logs in through the simulated identity provider's consent page, as the demo streamer. */
export async function logIn(context: BrowserContext, base: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.click("#login");
  await page.click("a.approve >> nth=0");
  await page.waitForURL(`${base}/dashboard`);
  return page;
}

const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA rules). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }
    ).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** The page's width beyond the viewport, in CSS pixels (0 = no horizontal scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The screens every page is checked on: a phone and a desktop, light and dark. */
export const SCREENS = [
  { name: "360", width: 360, height: 740, colorScheme: "light" },
  { name: "1280", width: 1280, height: 800, colorScheme: "light" },
  { name: "360-dark", width: 360, height: 740, colorScheme: "dark" },
  { name: "1280-dark", width: 1280, height: 800, colorScheme: "dark" },
] as const;

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

/** Polls the first matching element's text until `matches` accepts it (`ms`, 10 s), and returns it. */
export async function textOf(
  where: Locator,
  matches: (text: string) => boolean,
  ms = 10_000,
): Promise<string> {
  const deadline = Date.now() + ms;
  let text = "";
  while (Date.now() < deadline) {
    text =
      (await where
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => "")) ?? "";
    if (matches(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`never matched; last text: ${JSON.stringify(text)}`);
}

export type Screen = (typeof SCREENS)[number];

/** Which checks `expectFits` makes: both unless one is turned off. */
export interface FitChecks {
  overflow?: boolean;
  axe?: boolean;
}

/** The page as it is now: no sideways scrolling and axe clean; a failure names `where`. */
export async function expectFits(page: Page, where: string, checks: FitChecks = {}): Promise<void> {
  if (checks.overflow !== false)
    expect({ where, overflow: await horizontalOverflow(page) }).toEqual({ where, overflow: 0 });
  if (checks.axe !== false)
    expect({ where, violations: await axeViolations(page) }).toEqual({ where, violations: [] });
}

/**
 * On each of SCREENS in turn: the page laid out at its size and colour scheme, `expectFits`, then
 * `shoot(screen)`. Leaves the page at 1280 px, light.
 */
export async function onEveryScreen(
  page: Page,
  shoot: (screen: Screen) => Promise<unknown>,
  checks: FitChecks = {},
): Promise<void> {
  for (const screen of SCREENS) {
    await page.setViewportSize({ width: screen.width, height: screen.height });
    await page.emulateMedia({ colorScheme: screen.colorScheme });
    await Bun.sleep(100); // the layout settled
    await expectFits(page, screen.name, checks);
    await shoot(screen);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * onEveryScreen with a screenshot `name-<screen>.png` of `what`: an element, the whole page from top
 * to bottom (the default), or what the viewport shows.
 */
export function screenshotEveryScreen(
  page: Page,
  name: string,
  what: Locator | "full page" | "viewport" = "full page",
): Promise<void> {
  return onEveryScreen(page, (screen) => {
    const path = screenshotPath(`${name}-${screen.name}`);
    if (typeof what !== "string") return what.screenshot({ path });
    return page.screenshot({ path, fullPage: what === "full page" });
  });
}

/** What the dashboard's API (`/api/dashboard/<path>`) answers now, as the page's session; a 200 expected. */
export async function panelData<T>(page: Page, base: string, path: string): Promise<T> {
  const response = await page.request.get(`${base}/api/dashboard/${path}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

export interface DemoDashboardOptions {
  /** Watch that page from the login on (`watch`). */
  watch?: boolean;
  /** More set-up once logged in, within the same time limit. */
  prepare?: (demo: DemoDashboard) => Promise<void>;
  /** How long the set-up may take (default 40 s). */
  timeoutMs?: number;
}

function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`useDemoDashboard: no ${what} (not set up, or not asked for)`);
  return value;
}

/** A demo server and Chromium for a test file, with the streamer logged in. */
export class DemoDashboard {
  #server: DemoServer | undefined;
  #browser: Browser | undefined;
  #context: BrowserContext | undefined;
  #page: Page | undefined;
  #watch: PageWatch | undefined;

  get server(): DemoServer {
    return present(this.#server, "server");
  }
  get base(): string {
    return this.server.base;
  }
  get browser(): Browser {
    return present(this.#browser, "browser");
  }
  /** The streamer's session at 1280×800, light. */
  get context(): BrowserContext {
    return present(this.#context, "context");
  }
  get page(): Page {
    return present(this.#page, "page");
  }
  /** What `page` did that it should not, from the login on (only with `watch: true`). */
  get watch(): PageWatch {
    return present(this.#watch, "watch of the page");
  }

  async setUp(options: DemoDashboardOptions): Promise<void> {
    [this.#server, this.#browser] = await Promise.all([startDemoServer(), launchChromium()]);
    this.#context = await this.#browser.newContext({ viewport: { width: 1280, height: 800 } });
    this.#page = await logIn(this.#context, this.#server.base);
    if (options.watch) this.#watch = watchPage(this.#page, this.#server.base);
    await options.prepare?.(this);
  }

  async tearDown(): Promise<void> {
    await this.#context?.close();
    await this.#browser?.close();
    await this.#server?.stop();
  }

  /** A line typed in the demo's simulated chat by one of its viewers. */
  say = async (user: string, text: string): Promise<void> => {
    const response = await this.page.request.post(`${this.base}/api/dashboard/demo/chat`, {
      headers: { origin: this.base },
      data: { user, text },
    });
    expect(response.status()).toBe(200);
  };

  /**
   * Clicks the Allow of the view `#/<feature>` (`#<feature>-consent`) and approves on Twitch's
   * (simulated) page, back on that view; returns the text of Twitch's page (the scopes it asked for).
   */
  allowOnTwitch = async (feature: string): Promise<string> => {
    await this.page.click(`#${feature}-consent`);
    const consent = (await this.page.locator("body").textContent()) ?? "";
    await this.page.click("a.approve >> nth=0");
    await this.page.waitForURL(`${this.base}/dashboard#/${feature}`);
    return consent;
  };

  /** What `/api/dashboard/<path>` answers now, as the streamer's session. */
  panel = <T>(path: string): Promise<T> => panelData<T>(this.page, this.base, path);

  /** Polls `/api/dashboard/<path>` until `matches` accepts its answer (10 s), and returns it. */
  panelUntil = async <T>(path: string, matches: (data: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 10_000;
    let data = await this.panel<T>(path);
    while (!matches(data) && Date.now() < deadline) {
      await Bun.sleep(100);
      data = await this.panel<T>(path);
    }
    expect(matches(data)).toBe(true);
    return data;
  };

  /**
   * A fresh session at `screen`'s size and colour scheme: `beforeLogIn(context)` if given, then the
   * streamer logged in on a watched page, `use(page)`, and nothing may have gone wrong on that page.
   */
  inSession = async (
    screen: Screen,
    use: (page: Page) => Promise<void>,
    beforeLogIn?: (context: BrowserContext) => Promise<void>,
  ): Promise<void> => {
    const session = await this.browser.newContext({
      viewport: { width: screen.width, height: screen.height },
      colorScheme: screen.colorScheme,
    });
    try {
      await beforeLogIn?.(session);
      const page = await logIn(session, this.base);
      const watch = watchPage(page, this.base);
      await use(page);
      expect(watch.problems).toEqual([]);
    } finally {
      await session.close();
    }
  };
}

/**
 * Registers the file's beforeAll (a `serve --demo` process, Chromium, the streamer logged in) and
 * afterAll (all closed), and returns what they set up. Nothing starts where there is no Chromium,
 * whose tests are skipped.
 */
export function useDemoDashboard(options: DemoDashboardOptions = {}): DemoDashboard {
  const demo = new DemoDashboard();
  beforeAll(async () => {
    if (haveChromium) await demo.setUp(options);
  }, options.timeoutMs ?? 40_000);
  afterAll(() => demo.tearDown());
  return demo;
}
