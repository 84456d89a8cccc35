import { chmodSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { listAccounts } from "../../db/accounts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { deleteAccount, describeAccount, exportAccount, requireAccount } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

/** `cuebot users list`. */
export function listUsers(io: CliIo, globals: GlobalOptions): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const rows = (await listAccounts(ctx.db)).map(describeAccount);
    if (globals.json) return printJson(io, rows);
    printTable(
      io,
      ["LOGIN", "DISPLAY NAME", "ROLE", "ID", "CREATED"],
      rows.map((r) => [r.login, r.displayName, r.role, r.id, r.createdAt.slice(0, 10)]),
    );
  });
}

/** `cuebot users show <login>`: never its key or tokens. */
export function showUser(io: CliIo, globals: GlobalOptions, login: string): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    const details = {
      ...describeAccount(account),
      profileImageUrl: account.profileImageUrl,
      timezone: account.timezone,
      panelLimitOverride: account.panelLimitOverride,
      needsReauth: account.needsReauth,
      grantedScopes: await grantedScopes(ctx.db, account.id),
    };
    if (globals.json) return printJson(io, details);
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
  });
}

/** `cuebot users export <login> [--out file]`: all of one account's data, never keys or tokens. */
export function exportUser(
  io: CliIo,
  globals: GlobalOptions,
  login: string,
  options: { out?: string },
): Promise<void> {
  return withCliContext(globals, async (ctx) => {
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
    if (globals.json) printJson(io, { login: account.login, file });
    else io.out(`exported ${account.login} to ${file}`);
  });
}

/** `cuebot users delete <login> --yes`: the account and its data, and its provider token revoked. */
export function deleteUser(io: CliIo, globals: GlobalOptions, login: string): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    // Only a deletion talks to Twitch (to revoke the token): the other users commands load no client.
    const { identityProviderFor } = await import("../../server/identity/idp-client.ts");
    const identityProvider = identityProviderFor(ctx.config);
    const result = await deleteAccount({ ...ctx, identityProvider }, account, "cli");
    if (globals.json) return printJson(io, { login: account.login, deleted: true, ...result });
    io.out(`deleted ${account.login}${result.providerTokenRevoked ? " (provider token revoked)" : ""}`);
  });
}
