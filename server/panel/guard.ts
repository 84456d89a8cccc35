import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import type { SessionPrincipal } from "../http/auth.ts";
import { enforceLimit } from "../http/quota.ts";
import { requireSession } from "../http/session-auth.ts";
import type { Context } from "../runtime.ts";

type HeaderBag = { headers: Record<string, unknown> };

/**
 * Every panel route starts here (from a `derive`, so an anonymous request is refused before its
 * input is validated): a valid session, counted against the account's panel limit.
 */
export function authenticatePanel(
  ctx: Context,
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
