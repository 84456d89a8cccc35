// Loaded before every test file (bunfig.toml): stops the PostgreSQL and Redis servers the engine tests
// started, once the last file has run. `bun test` emits no process "exit" event to hook instead.
import { afterAll } from "bun:test";
import { stopAllEngines } from "./engines.ts";

afterAll(stopAllEngines);
