import { Elysia, t } from "elysia";
import { listActionCommandNames } from "../../db/actions.ts";
import { COMMAND_NAMES, COMMANDS, type CommandName, isCommandName } from "../bot/catalog.ts";
import { executeCommand } from "../bot/commands.ts";
import { readGamePlayer, setGamePlayer } from "../bot/game-player.ts";
import { commandInputOf } from "../bot/routes-input.ts";
import {
  applySettingsPatch,
  commandSettings,
  type SettingsPatch,
  updateCommandSettings,
} from "../bot/settings.ts";
import { badRequest, notFound } from "../core/errors.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";

/**
 * Refuses (400 naming `aliases`) a new alias an action's command trigger answers: the action had the
 * name first (actions/names.ts refuses it the other way round).
 */
async function refuseActionAliases(
  ctx: Context,
  accountId: number,
  command: CommandName,
  body: SettingsPatch,
) {
  if (body.aliases === undefined) return;
  const current = await commandSettings(ctx, accountId, command);
  const { aliases } = applySettingsPatch(current, { aliases: body.aliases });
  const actions = await listActionCommandNames(ctx.db, accountId);
  const taken = aliases.find((alias) => actions.has(alias) && !current.aliases.includes(alias));
  if (taken !== undefined)
    throw badRequest(
      `The body field "aliases" has "${taken}", which one of this channel's actions answers (!${taken}); change that action's trigger first.`,
    );
}

const unknownCommand = (name: string) =>
  notFound(`There is no command "${name}"; the commands are ${COMMAND_NAMES.join(", ")}.`);

const SettingsBody = t.Object({
  enabled: t.Optional(t.Unknown({ description: "true or false" })),
  cooldownSeconds: t.Optional(t.Unknown({ description: "0–3600" })),
  options: t.Optional(t.Unknown({ description: "command-specific options (see GET /commands defaults)" })),
  aliases: t.Optional(
    t.Unknown({ description: 'extra chat triggers, e.g. ["so"] (native chat answers !<name> and !<alias>)' }),
  ),
});

const GamePlayerBody = t.Object({
  region: t.Unknown({ description: "na, eu, ap, kr, latam or br" }),
  name: t.Unknown({ description: "the Riot ID's name, before the #" }),
  tag: t.Unknown({ description: "the Riot ID's tag, after the #" }),
});

/** The Commands tab: enable/disable, cooldowns, options, the game commands' player, and test runs. */
export function commandRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-commands", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/commands",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: await Promise.all(
          COMMAND_NAMES.map(async (command) => ({
            ...(await commandSettings(ctx, account.id, command)),
            description: COMMANDS[command].description,
            defaults: COMMANDS[command].defaults,
          })),
        ),
      }),
      {
        detail: {
          summary: "Every chat command with this channel's settings",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .put(
      "/commands/:command",
      async ({ principal: { account }, params, body }) => {
        if (!isCommandName(params.command)) throw unknownCommand(params.command);
        await refuseActionAliases(ctx, account.id, params.command, body);
        return {
          status: 200 as const,
          data: await updateCommandSettings(ctx, account.id, params.command, body),
        };
      },
      {
        body: SettingsBody,
        detail: {
          summary: "Change a command's settings (partial update)",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .get(
      "/game-player",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: {
          ...(await readGamePlayer(ctx, account.id)),
          // The game commands answer an error until the server has the provider's key.
          providerKey: ctx.config.game.apiKey !== null,
        },
      }),
      {
        detail: {
          summary:
            "The VALORANT player the game commands report on, whether they differ, and whether the server has the game provider's key",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .put(
      "/game-player",
      async ({ principal: { account }, body }) => ({
        status: 200 as const,
        data: await setGamePlayer(ctx, account.id, body),
      }),
      {
        body: GamePlayerBody,
        detail: {
          summary:
            "Set the VALORANT player every game command (rank, lastmatch, today, stats) reports on, each command's detail level kept",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .post(
      "/test/:command",
      async ({ principal: { account }, params, request, body }) => {
        if (!isCommandName(params.command)) throw unknownCommand(params.command);
        const input = commandInputOf(request, params.command);
        // A test from the owner's own dashboard is about the owner's channel.
        input.args.channel ??= account.login;
        // Unsaved settings (the dashboard's live preview) are checked exactly as a save would check them.
        const preview = body ?? undefined;
        if (preview) applySettingsPatch(await commandSettings(ctx, account.id, params.command), preview);
        return executeCommand(ctx, account, params.command, input, { test: "panel", preview });
      },
      {
        body: t.Optional(SettingsBody),
        detail: {
          summary:
            "Run a command as a test (no cooldown); same inputs as the bot endpoint. An optional JSON body (as for PUT /commands/:command) previews settings without saving them",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );
}
