/** Where a command writes; tests and the binary both pass the real streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const asLine = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);

/** What a command printed to stdout while held (holdOutput), or null: written at once. */
let heldOut: string[] | null = null;

export const processIo: CliIo = {
  out: (text) => {
    if (heldOut) heldOut.push(asLine(text));
    else process.stdout.write(asLine(text));
  },
  err: (text) => process.stderr.write(asLine(text)),
};

/**
 * Holds what the command prints on stdout until the returned function releases it: a new API key
 * must not reach a script before the running servers know the old one is gone (cli-context.ts).
 */
export function holdOutput(): () => void {
  heldOut ??= [];
  return () => {
    const lines = heldOut ?? [];
    heldOut = null;
    if (lines.length > 0) process.stdout.write(lines.join(""));
  };
}

/**
 * Waits until everything written to stdout and stderr has left the process. Bun's `process.exit`
 * drops what a slow reader (`cuebot users export x | jq`) has not taken yet, past the 64 KiB pipe
 * buffer; ending the streams is what waits for it.
 */
export async function flushOutput(): Promise<void> {
  const flush = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      stream.once("error", () => resolve());
      stream.end(() => resolve());
    });
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
}

/** Exit 1: the command could not do its work. Printed as `cuebot: <message>`. */
export class CliFailure extends Error {
  readonly exitCode: number = 1;
}

/** Exit 2: the command line itself is wrong; nothing was looked up or changed. */
export class CliUsageError extends CliFailure {
  override readonly exitCode = 2;
}

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** A plain aligned table for humans; `--json` is the machine-readable form. */
export function printTable(io: CliIo, headers: string[], rows: string[][]): void {
  if (rows.length === 0) {
    io.out("(none)");
    return;
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  io.out([line(headers), ...rows.map(line)].join("\n"));
}
