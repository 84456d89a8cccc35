/**
 * A second process writing to the same SQLite file at the same moment as the test (the CLI or a
 * second server does that for real): it opens its own connection, says "ready", and on "go <time>"
 * waits for that instant, runs its writes and prints what each answered, as one JSON line.
 *
 * Run as a script: `bun tests/db/other-process.ts <file> <increment|quote|alert> <accountId> <times> <name>`.
 * Imported: `startOtherProcess` starts it and hands over `go`.
 */
import { recordAlertEvent } from "../../db/alerts.ts";
import { incrementCommandCount } from "../../db/custom-commands.ts";
import { addQuote } from "../../db/quotes.ts";
import { openDatabase } from "../../db/sqlite/connection.ts";
import { SqliteDataStore } from "../../db/sqlite/sqlite-data-store.ts";

/** `alert` records alerts keyed `<name>-<i>`, answering each new id or -1 when the key was taken. */
export type Operation = "increment" | "quote" | "alert";

export interface OtherProcess {
  /** Starts both sides' writes at the same instant (now + `leadMs`); resolves at that instant. */
  go(leadMs?: number): Promise<void>;
  /** What each of its writes answered: the new counts, the quote numbers or the alert ids. */
  results: Promise<number[]>;
}

async function readLine(reader: ReadableStreamDefaultReader<Uint8Array>, buffer: { text: string }) {
  const decoder = new TextDecoder();
  while (!buffer.text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the other process ended early: ${buffer.text}`);
    buffer.text += decoder.decode(value);
  }
  const end = buffer.text.indexOf("\n");
  const line = buffer.text.slice(0, end);
  buffer.text = buffer.text.slice(end + 1);
  return line;
}

export async function startOtherProcess(
  file: string,
  operation: Operation,
  accountId: number,
  times: number,
  name = "deaths",
): Promise<OtherProcess> {
  const child = Bun.spawn(
    [process.execPath, import.meta.path, file, operation, String(accountId), String(times), name],
    { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
  );
  const reader = child.stdout.getReader();
  const buffer = { text: "" };
  const ready = await readLine(reader, buffer);
  if (ready !== "ready") throw new Error(`the other process said ${ready}`);
  return {
    async go(leadMs = 100) {
      const at = Date.now() + leadMs;
      child.stdin.write(`go ${at}\n`);
      child.stdin.flush();
      await Bun.sleep(Math.max(0, at - Date.now()));
    },
    results: (async () => {
      const line = await readLine(reader, buffer);
      const code = await child.exited;
      if (code !== 0) throw new Error(`the other process failed: ${await new Response(child.stderr).text()}`);
      return JSON.parse(line) as number[];
    })(),
  };
}

async function runAsScript(): Promise<void> {
  const [file, operation, account, times, name] = Bun.argv.slice(2) as [
    string,
    Operation,
    string,
    string,
    string,
  ];
  const handle = openDatabase(file);
  const store = new SqliteDataStore(handle.sqlite, handle.db);
  const accountId = Number(account);
  console.log("ready");
  let start = 0;
  for await (const line of console) {
    if (line.startsWith("go ")) {
      start = Number(line.slice(3));
      break;
    }
  }
  await Bun.sleep(Math.max(0, start - Date.now()));
  const results: number[] = [];
  for (let i = 0; i < Number(times); i++) {
    if (operation === "increment") {
      results.push((await incrementCommandCount(store, accountId, name)) ?? -1);
    } else if (operation === "alert") {
      const fields = { user: "Other", amount: i, months: null, tier: null, reward: null, message: null };
      const at = Date.now();
      const added = await recordAlertEvent(store, {
        accountId,
        type: "cheer",
        eventKey: `${name}-${i}`,
        fields,
        test: false,
        at,
      });
      results.push(added?.id ?? -1);
    } else {
      results.push(
        (await addQuote(store, accountId, { text: `from the other process ${i}` }, Date.now())).number,
      );
    }
  }
  handle.close();
  console.log(JSON.stringify(results));
}

if (import.meta.main) await runAsScript();
