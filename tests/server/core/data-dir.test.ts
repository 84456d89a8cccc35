import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertWritable } from "../../../server/core/data-dir.ts";

test("the write probe is gone when assertWritable returns, so removing the folder at once is safe", () => {
  const dir = mkdtempSync(join(tmpdir(), "cuebot-probe-"));
  try {
    assertWritable(dir);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
