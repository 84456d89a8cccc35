// The dashboard's guard (server/panel/ and the routes of features the dashboard calls: identity,
// overlay) and how /docs describes it.
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import type { SessionPrincipal } from "./auth.ts";
import { enforceLimit } from "./quota.ts";
import { requireSession, type SessionContext } from "./session-auth.ts";

type HeaderBag = { headers: Record<string, unknown> };

/**
 * Every panel route starts here (from a `derive`, so an anonymous request is refused before its
 * input is validated): a valid session, counted against the account's panel limit.
 */
export function authenticatePanel(
  ctx: SessionContext,
  request: Request,
  set: HeaderBag,
): MaybePromise<SessionPrincipal> {
  return andThen(requireSession(ctx, request, set), (principal) =>
    andThen(
      enforceLimit(
        set as { headers: Record<string, string | number> },
        ctx.limits.accounts.checkPanel(principal.account),
        "panel",
      ),
      () => principal,
    ),
  );
}

/**
 * How panel routes describe themselves in /docs: the session cookie is the credential, and every
 * state-changing call must send our Origin (CONTRACT §4) — say so where an API user will look.
 */
export const PANEL_SECURITY: Record<string, string[]>[] = [{ session: [] }];

export const ORIGIN_NOTE =
  "Needs the `app_sess` session cookie. State-changing calls (POST, PUT, DELETE) must also send `Origin: <public URL>`, or they are refused with 403 `bad_origin`.";
