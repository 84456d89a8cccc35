// secret.key is created once, whole, and never replaced — also where the file system cannot make
// hard links (vfat, some network mounts) and when another instance created it a moment earlier.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadOrCreateSecretKey } from "../../../server/core/secrets.ts";
import { Scratch } from "../../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());
const folder = () => scratch.dir("cuebot-unit-");
const noHardLinks = () => {
  throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
};

describe("loadOrCreateSecretKey", () => {
  test("on a file system without hard links the key is still created, owner-only, with nothing left beside it", () => {
    const dir = folder();
    const created = loadOrCreateSecretKey(dir, noHardLinks);
    expect(created.created).toBe(true);
    expect(created.key).toHaveLength(32);
    expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["secret.key"]);
    expect(loadOrCreateSecretKey(dir, noHardLinks).key.equals(created.key)).toBe(true);
  });

  test("a key another process put in place first is the key: it is read, never replaced", () => {
    const dir = folder();
    const theirs = "ab".repeat(32);
    const createdByOther = () => {
      writeFileSync(join(dir, "secret.key"), `${theirs}\n`, { mode: 0o600 });
      throw Object.assign(new Error("EEXIST: file already exists, link"), { code: "EEXIST" });
    };
    const result = loadOrCreateSecretKey(dir, createdByOther);
    expect(result.created).toBe(false);
    expect(result.key.toString("hex")).toBe(theirs);
    expect(readdirSync(dir)).toEqual(["secret.key"]);
  });
});
