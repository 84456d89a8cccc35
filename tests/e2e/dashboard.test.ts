import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Browser, chromium, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ROOT = join(import.meta.dir, "..", "..");
const haveChromium = existsSync(CHROMIUM);

let server: Subprocess<"ignore", "pipe", "pipe"> | undefined;
let browser: Browser | undefined;
let dataDir = "";
let base = "";

/** Starts `cuebot serve --demo` as a real process and waits for its "listening on" line. */
async function startDemoServer(): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), "cuebot-e2e-"));
  server = Bun.spawn(
    ["bun", join(ROOT, "cli/main.ts"), "serve", "--demo", "--port", "0", "--data-dir", dataDir],
    {
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", CUEBOT_LOG_FORMAT: "json" },
    },
  );
  const reader = server.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value);
    const match = /listening on (http:\/\/[^"\s]+)/.exec(seen);
    if (match) {
      reader.releaseLock();
      return match[1]!.replace("127.0.0.1", "localhost");
    }
  }
  throw new Error(`the demo server did not start:\n${seen}`);
}

/** Polls the element's text until it matches (the page's CSP rightly forbids evaluated scripts). */
async function textOf(page: Page, selector: string, matches: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  let text = "";
  while (Date.now() < deadline) {
    text = (await page.locator(selector).textContent()) ?? "";
    if (matches(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`${selector} never matched; last text: ${JSON.stringify(text)}`);
}

beforeAll(async () => {
  if (!haveChromium) return;
  base = await startDemoServer();
  browser = await chromium.launch({
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
}, 30_000);

afterAll(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  await server?.exited;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)("the dashboard in a real browser (serve --demo)", () => {
  test("log in, see the session, reveal and regenerate the key; the old key stops working", async () => {
    const page = await browser!.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${base}/`);
    await page.click("#login");
    // The simulated identity provider's consent page.
    await page.click("a.approve >> nth=0");
    await page.waitForURL(`${base}/dashboard`);
    expect(await textOf(page, "#session-login", (t) => t !== "…")).toBe("cuebotdemo");
    expect(await textOf(page, "#profile-role", (t) => t !== "…")).toBe("Default");
    expect(await textOf(page, "#session-timezone", (t) => t !== "…")).not.toBe("");

    await page.click("#reveal-key");
    const oldKey = await textOf(page, "#api-key", (t) => /^[0-9a-f-]{36}$/.test(t));
    expect(await textOf(page, "#key-countdown", (t) => t.length > 0)).toContain("hidden again in");

    await page.click("#regenerate-key");
    const regenerated = await textOf(page, "#api-key", (t) => /^[0-9a-f-]{36}$/.test(t) && t !== oldKey);

    const call = (key: string) => fetch(`${base}/api/bot/coinflip?apiKey=${key}&format=text`);
    expect((await call(oldKey)).headers.get("x-cuebot-status")).toBe("401");
    expect((await call(regenerated)).headers.get("x-cuebot-status")).toBe("200");

    await page.screenshot({ path: join(dataDir, "dashboard.png"), fullPage: true });
    if (process.env.CUEBOT_E2E_SCREENSHOT)
      await Bun.write(process.env.CUEBOT_E2E_SCREENSHOT, Bun.file(join(dataDir, "dashboard.png")));
    await page.close();
  }, 60_000);
});
