import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerOverlayCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("overlay")
    .description("manage overlay tokens")
    .command("rotate")
    .description("issue a new overlay token; overlays using the old one stop updating")
    .argument("<login>", "the streamer's login")
    .action(async (login: string) => {
      const { rotateAccountOverlayToken } = await import("../actions/overlay.ts");
      await rotateAccountOverlayToken(io, globals(), login);
    });
}
