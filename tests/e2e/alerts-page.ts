// What the Alerts view's browser tests share: opening the view and a type, a type's settings as the
// panel API has them, and real image and sound files to upload.
import { expect } from "bun:test";
import { deflateSync } from "node:zlib";
import type { Locator, Page } from "playwright-core";
import { panelData } from "../helpers/browser.ts";

export const TYPES = ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"] as const;
export type Type = (typeof TYPES)[number];

export interface Settings {
  template: string;
  imageId: number | null;
  soundId: number | null;
  chatMessage: string | null;
  durationSeconds: number;
}

export interface Info {
  state: string;
  alertsOnlyUrl: string;
  types: { type: Type; state: string; settings: Settings }[];
}

/** A full load of the view, its panels arrived. */
export async function openAlertsView(page: Page, base: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${base}/dashboard#/alerts`);
  await page.locator("#alerts-state").waitFor();
  await page.locator("#alerts-history ol, #alerts-history .state-empty").first().waitFor();
  expect(await page.locator(".state-error").count()).toBe(0);
}

export async function openAlertType(page: Page, type: Type): Promise<Locator> {
  const section = page.locator(`#alert-type-${type}`);
  if ((await section.getAttribute("open")) === null) await section.locator("summary").click();
  return section;
}

export async function settingsOf(page: Page, base: string, type: Type): Promise<Settings> {
  const info = await panelData<Info>(page, base, "alerts");
  const found = info.types.find((t) => t.type === type);
  if (!found) throw new Error(`no ${type} in the alerts answer`);
  return found.settings;
}

/** A real PNG of `size`×`size` pixels: a purple disc on a transparent square. */
export function pngBytes(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(Bun.hash.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const rows: number[] = [];
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const inside = (x - r + 0.5) ** 2 + (y - r + 0.5) ** 2 <= r * r;
      rows.push(0x8b, 0x5c, 0xf6, inside ? 255 : 0);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A short silent WAV (16-bit mono, 8 kHz). */
export function wavBytes(samples = 800): Buffer {
  const head = Buffer.alloc(44);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(36 + samples * 2, 4);
  head.write("WAVEfmt ", 8, "latin1");
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36, "latin1");
  head.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([head, Buffer.alloc(samples * 2)]);
}
