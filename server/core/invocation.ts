import { basename, delimiter, dirname, isAbsolute, relative, resolve } from "node:path";

/**
 * How a person starts cuebot again where it was started this time, so every message that says what
 * to run (the start log, the 503 of /auth/login, the landing page, `init`, `doctor`) names a command
 * that works: `npm run cuebot -- …` in a source checkout (`cuebot` is not on PATH there), the binary's
 * own name otherwise.
 */
export interface Invocation {
  /** The command line for cuebot's `args`, e.g. `npm run cuebot -- init --owner <login>`. */
  command(args: string): string;
  /** Runs the server: `npm start` in a checkout, `<binary> serve` otherwise. */
  readonly serve: string;
  /** Runs the demo: `npm start -- --demo` in a checkout, `<binary> serve --demo` otherwise. */
  readonly demo: string;
}

/** What tells a compiled binary from a checkout, and where the binary lies. */
export interface ProcessFacts {
  /** `Bun.main`: inside a compiled binary it starts with `/$bunfs/`. */
  main: string;
  /** `process.execPath`: the binary itself when compiled. */
  execPath: string;
  cwd: string;
  /** The PATH variable. */
  path: string;
}

const COMPILED_MAIN = /^\/\$bunfs\/|^[A-Z]:[\\/]~BUN[\\/]/;

/** A source checkout (`bun cli/main.ts`, `npm start`) or the compiled binary, from the facts given. */
export function invocationOf(facts: ProcessFacts): Invocation {
  if (!COMPILED_MAIN.test(facts.main)) {
    return {
      command: (args) => `npm run cuebot -- ${args}`,
      serve: "npm start",
      demo: "npm start -- --demo",
    };
  }
  const binary = binaryName(facts);
  return {
    command: (args) => `${binary} ${args}`,
    serve: `${binary} serve`,
    demo: `${binary} serve --demo`,
  };
}

/** Its basename when its folder is on PATH, else `./relative/path` below the cwd, else its absolute path. */
function binaryName({ execPath, cwd, path }: ProcessFacts): string {
  const folder = resolve(dirname(execPath));
  const onPath = path
    .split(delimiter)
    .filter((entry) => entry !== "")
    .some((entry) => resolve(cwd, entry) === folder);
  if (onPath) return basename(execPath);
  const below = relative(cwd, execPath);
  if (below !== "" && !below.startsWith("..") && !isAbsolute(below)) return `./${below}`;
  return resolve(execPath);
}

/** This process's invocation. */
export function currentInvocation(): Invocation {
  return invocationOf({
    main: typeof Bun === "undefined" ? "" : Bun.main,
    execPath: process.execPath,
    cwd: process.cwd(),
    path: process.env.PATH ?? "",
  });
}

/** The `init` line that configures Twitch login, in this invocation's form. */
export function configureCommand(invocation: Invocation): string {
  return invocation.command("init --twitch-client-id <id> --twitch-client-secret <secret>");
}

/**
 * What every "Twitch login is not configured" message says to do: open the setup link (`link` says
 * which; never its token), or run the command, or try the demo. No backticks: pages show it as it is.
 */
export function howToConfigure(
  invocation: Invocation = currentInvocation(),
  link = "the setup link printed when cuebot started",
): string {
  return `Open ${link} in a browser, or run ${configureCommand(invocation)} (or set CUEBOT_TWITCH_CLIENT_ID and CUEBOT_TWITCH_CLIENT_SECRET) and restart cuebot. To try everything without a Twitch account, start the demo: ${invocation.demo}`;
}
