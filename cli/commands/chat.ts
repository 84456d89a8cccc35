import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerChatCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const chat = program.command("chat").description("native chat: which channels cuebot answers in itself");

  chat
    .command("list")
    .description(
      "accounts with native chat turned on, and their connection state as the running server reports it",
    )
    .action(async () => {
      const { listChatChannels } = await import("../actions/chat.ts");
      await listChatChannels(io, globals());
    });
}
