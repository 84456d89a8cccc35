import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerKeyCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const key = program.command("key").description("show or rotate an account's API key");

  key
    .command("show")
    .description("print the current API key")
    .argument("<login>", "the streamer's login")
    .action(async (login: string) => {
      const { showApiKey } = await import("../actions/key.ts");
      await showApiKey(io, globals(), login);
    });

  key
    .command("rotate")
    .description("issue a new API key; the old one stops working at once")
    .argument("<login>", "the streamer's login")
    .action(async (login: string) => {
      const { rotateAccountApiKey } = await import("../actions/key.ts");
      await rotateAccountApiKey(io, globals(), login);
    });
}
