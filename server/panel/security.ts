import { Elysia } from "elysia";
import { recordAudit } from "../../db/audit.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { exportAccount, revealApiKey, rotateApiKey, rotateOverlayToken } from "../core/accounts.ts";
import { appendSetCookie } from "../http/cookies.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import { clearSessionCookie } from "../http/session-auth.ts";
import { removeAccount } from "../identity/account-removal.ts";
import { panelLimit, ROLE_QUOTAS } from "../limits/tables.ts";
import type { Context } from "../runtime.ts";
import { canListModerators, SHOUTOUT_SCOPE } from "../twitch/scopes.ts";

/** Where the streamer allows each feature that needs a scope beyond the ten (`/auth/login?consent=…`). */
export const SCOPE_CONSENT_URLS = {
  platform_shoutout: "/auth/login?consent=shoutout",
  moderator_list: "/auth/login?consent=moderators",
} as const;

/**
 * The features a grant switches on (CONTRACT §6: Twitch's own shoutout, listing moderators), and for
 * each one not granted yet the consent that allows it (null once granted).
 */
function scopeFeatures(granted: readonly string[]) {
  const features = {
    platform_shoutout: granted.includes(SHOUTOUT_SCOPE),
    moderator_list: canListModerators(granted),
  };
  return {
    features,
    consent_urls: {
      platform_shoutout: features.platform_shoutout ? null : SCOPE_CONSENT_URLS.platform_shoutout,
      moderator_list: features.moderator_list ? null : SCOPE_CONSENT_URLS.moderator_list,
    },
  };
}

/** The dashboard's profile and Security tab: reveal/regenerate the key, rotate the overlay token, export, delete. */
export function securityRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-security", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/profile",
      async ({ principal: { account } }) => {
        const scopes = await grantedScopes(ctx.db, account.id);
        return {
          status: 200 as const,
          data: {
            id: account.twitchUserId,
            login: account.login,
            display_name: account.displayName,
            profile_image_url: account.profileImageUrl,
            timezone: account.timezone,
            role: account.role,
            // A one-streamer install shows no role: roles matter where several streamers share it.
            several_accounts: (await ctx.accounts.accountCount()) > 1,
            created_at: new Date(account.createdAt).toISOString(),
            limits: {
              bot_per_minute: ROLE_QUOTAS[account.role].bot,
              heavy_per_minute: ROLE_QUOTAS[account.role].heavy,
              panel_per_minute: panelLimit(account.role, account.panelLimitOverride),
              command_cache_seconds: ROLE_QUOTAS[account.role].commandCacheTtlMs / 1000,
            },
            granted_scopes: scopes,
            // Chat-bot lines and overlay links are built on it; a loopback URL is out of reach of cloud bots.
            public_url: ctx.publicUrl,
            demo: ctx.config.demo,
            ...scopeFeatures(scopes),
          },
        };
      },
      {
        detail: {
          summary: "The logged-in streamer's profile, role and limits",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .post(
      "/security/reveal-key",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { apiKey: await revealApiKey(ctx, account, "panel") },
      }),
      {
        detail: {
          summary: "Reveal the API key (audit-logged; the dashboard hides it again after 30 s)",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .post(
      "/security/regenerate-key",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { apiKey: await rotateApiKey(ctx, account, "panel") },
      }),
      {
        detail: {
          summary: "Issue a new API key; the old one stops working at once",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .post(
      "/security/rotate-overlay-token",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { overlayToken: await rotateOverlayToken(ctx, account, "panel") },
      }),
      {
        detail: {
          summary: "Issue a new overlay token",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .get(
      "/export",
      async ({ principal: { account } }) => {
        await recordAudit(
          ctx.db,
          { accountId: account.id, login: account.login, actor: "panel", action: "account.export" },
          ctx.clock.now(),
        );
        const document = await exportAccount(ctx, account);
        const date = document.exportedAt.slice(0, 10);
        return new Response(`${JSON.stringify(document, null, 2)}\n`, {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "content-disposition": `attachment; filename="cuebot-export-${account.login}-${date}.json"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        detail: {
          summary: "Download all data of the account (never keys or tokens)",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .delete(
      "/account",
      async ({ principal: { account }, set }) => {
        const result = await removeAccount(ctx, account, "panel");
        appendSetCookie(set, clearSessionCookie(ctx));
        return {
          status: 200 as const,
          data: { deleted: true, provider_token_revoked: result.providerTokenRevoked },
        };
      },
      {
        detail: {
          summary: "Delete the account and everything of it; ends every session",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );
}
