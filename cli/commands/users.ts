import { chmodSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { listAccounts } from "../../db/accounts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { deleteAccount, describeAccount, exportAccount, requireAccount } from "../../server/core/accounts.ts";
import { identityProviderFor } from "../../server/identity/idp-client.ts";
import { withCliContext } from "../cli-context.ts";
import {
  CliFailure,
  type CliIo,
  CliUsageError,
  type GlobalOptions,
  printJson,
  printTable,
} from "../output.ts";

export function registerUsersCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const users = program.command("users").description("list, inspect, export and delete accounts");

  users
    .command("list")
    .description("every account")
    .action(() =>
      withCliContext(globals(), async (ctx) => {
        const rows = (await listAccounts(ctx.db)).map(describeAccount);
        if (globals().json) return printJson(io, rows);
        printTable(
          io,
          ["LOGIN", "DISPLAY NAME", "ROLE", "ID", "CREATED"],
          rows.map((r) => [r.login, r.displayName, r.role, r.id, r.createdAt.slice(0, 10)]),
        );
      }),
    );

  users
    .command("show")
    .description("one account's details (never its key or tokens)")
    .argument("<login>", "the streamer's login")
    .action((login: string) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const details = {
          ...describeAccount(account),
          profileImageUrl: account.profileImageUrl,
          timezone: account.timezone,
          panelLimitOverride: account.panelLimitOverride,
          needsReauth: account.needsReauth,
          grantedScopes: await grantedScopes(ctx.db, account.id),
        };
        if (globals().json) return printJson(io, details);
        io.out(
          [
            `login:           ${details.login}`,
            `display name:    ${details.displayName}`,
            `platform id:     ${details.id}`,
            `role:            ${details.role}`,
            `panel override:  ${details.panelLimitOverride === null ? "-" : `${details.panelLimitOverride}/min`}`,
            `time zone:       ${details.timezone}`,
            `created:         ${details.createdAt}`,
            `needs new login: ${details.needsReauth ? "yes" : "no"}`,
            `granted scopes:  ${details.grantedScopes.join(" ") || "-"}`,
          ].join("\n"),
        );
      }),
    );

  users
    .command("export")
    .description("all data of one account as JSON (never keys or tokens)")
    .argument("<login>", "the streamer's login")
    .option("--out <file>", "write to this file instead of standard output")
    .action((login: string, options: { out?: string }) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const document = await exportAccount(ctx, account);
        const text = `${JSON.stringify(document, null, 2)}\n`;
        if (!options.out) return io.out(text);
        const file = resolve(options.out);
        try {
          writeFileSync(file, text, { mode: 0o600 });
          // The mode above only applies to a new file; an existing one is narrowed too.
          chmodSync(file, 0o600);
        } catch (error) {
          throw new CliFailure(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
        }
        if (globals().json) printJson(io, { login: account.login, file });
        else io.out(`exported ${account.login} to ${file}`);
      }),
    );

  users
    .command("delete")
    .description("delete an account and all its data, revoking its provider token")
    .argument("<login>", "the streamer's login")
    .option("--yes", "confirm the deletion")
    .action((login: string, options: { yes?: boolean }) => {
      if (!options.yes) {
        throw new CliUsageError(
          `refusing to delete "${login}" without --yes (this removes the account and all of its data)`,
        );
      }
      return withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const identityProvider = identityProviderFor(ctx.config);
        const result = await deleteAccount({ ...ctx, identityProvider }, account, "cli");
        if (globals().json) return printJson(io, { login: account.login, deleted: true, ...result });
        io.out(`deleted ${account.login}${result.providerTokenRevoked ? " (provider token revoked)" : ""}`);
      });
    });
}
