// The dashboard session once logged in: POST /auth/logout ends it, GET /api/system/validate says
// whose it is and until when.
import { Elysia } from "elysia";
import { ApiError } from "../core/errors.ts";
import { endSession, SESSION_COOKIE } from "../core/sessions.ts";
import { presentedCredentials, readCookie } from "../http/auth.ts";
import { appendSetCookie } from "../http/cookies.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import { clearSessionCookie, type SessionContext } from "../http/session-auth.ts";

export function sessionRoutes(ctx: SessionContext) {
  return new Elysia({ name: "cuebot.auth-session" })
    .post(
      "/auth/logout",
      async ({ request, set }) => {
        const token = readCookie(request, SESSION_COOKIE);
        if (token) await endSession(ctx, token);
        appendSetCookie(set, clearSessionCookie(ctx));
        return { status: 200 as const, data: { loggedOut: true } };
      },
      { detail: { summary: "End this browser's session", tags: ["auth"] } },
    )
    .get(
      "/api/system/validate",
      async ({ request, set }) => {
        // An overlay token is never a session, not even next to one (SERVICE.md §5).
        if (presentedCredentials(request).overlayToken) {
          throw new ApiError(403, "overlay_token_forbidden", "An overlay token cannot validate a session.");
        }
        const { account, expiresAt } = await authenticatePanel(ctx, request, set);
        return {
          status: 200 as const,
          valid: true,
          tokenExpiresAt: new Date(expiresAt).toISOString(),
          user: {
            id: account.twitchUserId,
            login: account.login,
            display_name: account.displayName,
            profile_image_url: account.profileImageUrl,
            timezone: account.timezone,
          },
        };
      },
      {
        detail: {
          summary: "Validate the dashboard session",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );
}
