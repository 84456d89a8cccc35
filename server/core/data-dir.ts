import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE, type StoredConfig } from "./config.ts";
import { loadOrCreateSecretKey, SECRET_KEY_FILE } from "./secrets.ts";

export const DATABASE_FILE = "cuebot.db";

/** Where `serve --demo` keeps the demo's own data, inside the data folder it is started on. */
export function demoDataDir(dataDir: string): string {
  return join(dataDir, "demo");
}

export class DataDirError extends Error {}

export interface DataDirState {
  created: boolean;
  secretCreated: boolean;
  configCreated: boolean;
}

/**
 * Makes sure the data folder exists, is writable, and holds a secret key and a config file. Existing
 * files are never replaced: the secret key in particular must survive every re-run.
 */
export function prepareDataDir(dataDir: string): DataDirState {
  let created = false;
  if (!existsSync(dataDir)) {
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      created = true;
    } catch (error) {
      throw new DataDirError(`cannot create data folder ${dataDir} (${errno(error)})`);
    }
  } else if (!statSync(dataDir).isDirectory()) {
    throw new DataDirError(`data folder ${dataDir} is not a folder`);
  }
  assertWritable(dataDir);
  const { created: secretCreated } = loadOrCreateSecretKey(dataDir);
  const configPath = join(dataDir, CONFIG_FILE);
  let configCreated = false;
  if (!existsSync(configPath)) {
    // Exclusive: a second instance starting at the same moment never truncates the first one's file.
    try {
      writeFileSync(configPath, `${JSON.stringify({}, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      chmodSync(configPath, 0o600);
      configCreated = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return { created, secretCreated, configCreated };
}

/** A real write probe: permission bits alone say nothing for root or on read-only mounts. */
export function assertWritable(dataDir: string): void {
  const probe = join(dataDir, `.write-test-${process.pid}`);
  try {
    accessSync(dataDir, constants.W_OK);
    writeFileSync(probe, "");
    // Synchronous: an un-awaited async delete failed later, unhandled, when the folder went first.
    unlinkSync(probe);
  } catch (error) {
    throw new DataDirError(`data folder ${dataDir} is not writable (${errno(error)})`);
  }
}

export function assertDataDirExists(dataDir: string, onPostgres = false): void {
  // On PostgreSQL the folder holds no database file; its secret.key says it is cuebot's.
  const marker = onPostgres ? SECRET_KEY_FILE : DATABASE_FILE;
  if (!existsSync(join(dataDir, marker))) {
    throw new DataDirError(
      `no cuebot data in ${dataDir} (run "cuebot init" or "cuebot serve" first, or pass --data-dir)`,
    );
  }
}

/** config.json may hold the provider secret, so it is readable by its owner only. */
export function writeConfigFile(dataDir: string, config: StoredConfig): void {
  const path = join(dataDir, CONFIG_FILE);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
