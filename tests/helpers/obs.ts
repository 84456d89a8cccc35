/**
 * A real OBS Studio for tests, from Debian's `obs-studio` (29.0.2 with obs-websocket 5.1.0) and `xvfb`,
 * which `.ci/run` installs: headless on its own Xvfb display, in a temporary HOME whose global.ini turns
 * obs-websocket on (a free loopback-reachable port, a password) and skips the first-run wizard, with a
 * small 640×360 10 fps profile (reference/obs.md §10). It can be killed outright and started again on
 * the same HOME and port, as a streamer's OBS crashes and comes back.
 *
 * Where OBS or Xvfb is not installed `haveObs` is false and the suites using it skip, saying what to
 * install. Everything started here is stopped when the test process ends, however it ends.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort, onExit, quote, watchdog } from "./engines.ts";

const OBS = Bun.which("obs");
const XVFB = Bun.which("Xvfb");

export const haveObs = OBS !== null && XVFB !== null;

/** Says once, in the test output, why real-OBS tests are skipped. */
export function explainObsSkip(): void {
  if (!haveObs) {
    console.warn("skipping real-OBS tests: obs or Xvfb is missing (apt-get install obs-studio xvfb)");
  }
}

export interface RealObs {
  /** ws://127.0.0.1:<port> */
  url: string;
  port: number;
  password: string;
  /** OBS's own log of this run so far (for a failing test's message). */
  log(): Promise<string>;
  /** SIGKILL: no ExitStarted, no close frame, the socket just drops. */
  kill(): Promise<void>;
  /**
   * Starts OBS again on the same HOME and port (after kill); resolves once it says Hello. There is no
   * graceful quit: OBS 29 dies on SIGTERM like on SIGKILL (1006, no ExitStarted) and ignores SIGINT.
   */
  restart(): Promise<void>;
  /** Stops OBS and its display and removes the temporary HOME. */
  stop(): Promise<void>;
}

const PROFILE = "cuebot-test";

/** global.ini and a small profile, as OBS 29 reads them (reference/obs.md §10.2). */
function writeConfig(home: string, port: number, password: string): void {
  const config = join(home, ".config", "obs-studio");
  mkdirSync(join(config, "basic", "profiles", PROFILE), { recursive: true });
  mkdirSync(join(config, "basic", "scenes"), { recursive: true });
  writeFileSync(
    join(config, "global.ini"),
    [
      "[General]",
      "FirstRun=true",
      "[Basic]",
      `Profile=${PROFILE}`,
      `ProfileDir=${PROFILE}`,
      `SceneCollection=${PROFILE}`,
      `SceneCollectionFile=${PROFILE}`,
      "[OBSWebSocket]",
      "FirstLoad=false",
      "ServerEnabled=true",
      `ServerPort=${port}`,
      "AlertsEnabled=false",
      "AuthRequired=true",
      `ServerPassword=${password}`,
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(config, "basic", "profiles", PROFILE, "basic.ini"),
    [
      "[General]",
      `Name=${PROFILE}`,
      "[Video]",
      "BaseCX=640",
      "BaseCY=360",
      "OutputCX=640",
      "OutputCY=360",
      "FPSType=1",
      "FPSInt=10",
      "",
    ].join("\n"),
  );
}

/** Xvfb on a display it picks itself (-displayfd), so parallel test processes never collide. */
async function startXvfb(): Promise<{ proc: Subprocess; display: string }> {
  const proc = Bun.spawn([XVFB!, "-displayfd", "1", "-screen", "0", "640x360x24", "-nolisten", "tcp"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("Xvfb exited before choosing a display");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, display: `:${text.trim()}` };
}

/** Resolves once obs-websocket at `url` sends Hello; throws after `timeoutMs`. */
export async function waitForHello(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const said = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url, ["obswebsocket.json"]);
      const done = (ok: boolean) => {
        ws.close();
        resolve(ok);
      };
      ws.onmessage = () => done(true);
      ws.onerror = () => done(false);
      ws.onclose = () => resolve(false);
    });
    if (said) return;
    await Bun.sleep(100);
  }
  throw new Error(`OBS did not say Hello on ${url} within ${timeoutMs} ms`);
}

/** Starts a headless OBS; `password` defaults to a random one. */
export async function startRealObs(options: { password?: string } = {}): Promise<RealObs> {
  if (!haveObs) throw new Error("OBS is not installed (apt-get install obs-studio xvfb)");
  const home = mkdtempSync(join(tmpdir(), "cuebot-obs-"));
  const port = await freePort();
  const password = options.password ?? `pw-${crypto.randomUUID()}`;
  writeConfig(home, port, password);
  const xvfb = await startXvfb();
  const logFile = join(home, "obs.log");
  let obs: Subprocess | null = null;

  const launch = async () => {
    obs = Bun.spawn([OBS!, "--multi", "--disable-updater", "--disable-missing-files-check"], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        DISPLAY: xvfb.display,
        LIBGL_ALWAYS_SOFTWARE: "1",
      },
      stdin: "ignore",
      stdout: Bun.file(logFile),
      stderr: Bun.file(logFile),
    });
    await waitForHello(url);
  };
  const url = `ws://127.0.0.1:${port}`;

  const killObs = async () => {
    const proc = obs as Subprocess | null;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGKILL");
      await proc.exited;
    }
  };
  const cleanupNow = () => {
    const proc = obs as Subprocess | null;
    proc?.kill("SIGKILL");
    xvfb.proc.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  };
  const forget = onExit(cleanupNow);
  const dismiss = watchdog(`kill -9 ${xvfb.proc.pid} 2>/dev/null; rm -rf ${quote(home)}`);

  try {
    await launch();
  } catch (error) {
    const log = await Bun.file(logFile)
      .text()
      .catch(() => "");
    cleanupNow();
    forget();
    dismiss();
    throw new Error(`${(error as Error).message}\n${log.slice(-3000)}`);
  }

  return {
    url,
    port,
    password,
    log: () => Bun.file(logFile).text(),
    kill: killObs,
    async restart() {
      await killObs();
      await launch();
    },
    async stop() {
      await killObs();
      xvfb.proc.kill("SIGKILL");
      await xvfb.proc.exited;
      rmSync(home, { recursive: true, force: true });
      forget();
      dismiss();
    },
  };
}
