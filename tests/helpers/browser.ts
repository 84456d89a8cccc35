// Browser tests: the real `cuebot serve --demo` process and Debian's Chromium through playwright-core.
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

/** Polls the first matching element's text until `matches` accepts it (10 s), and returns it. */
export async function textOf(where: Locator, matches: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
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
