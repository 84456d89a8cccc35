import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { revealCredential } from "../../db/credentials.ts";
import { loadOverlayState, publishOverlayState, type StoredOverlayState } from "../../db/overlay.ts";
import type { CoreContext } from "../core/context.ts";
import { badRequest, containsNul } from "../core/errors.ts";
import { andThen, type MaybePromise, throwWhenReady } from "../core/maybe-promise.ts";
import { notAuthenticated, presentedCredentials } from "../http/auth.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import { enforceLimit, failedAuthentication } from "../http/quota.ts";
import type { SessionContext } from "../http/session-auth.ts";
import type { OverlayHub } from "./hub.ts";
import { type OverlayTokenContext, overlayEventStream, STREAM_CAP_NOTE } from "./routes-stream.ts";

type HeaderBag = { headers: Record<string, string | number> };

/** Published state is small JSON (a title, a message, a theme…): 16 KiB is plenty and keeps SSE cheap. */
export const MAX_OVERLAY_STATE_BYTES = 16 * 1024;
export { MAX_OVERLAY_STREAMS } from "./routes-stream.ts";

/** What the overlay routes read: the token and dashboard checks, the stored state, the live overlays. */
interface OverlayRoutesContext extends OverlayTokenContext, SessionContext, Pick<CoreContext, "secrets"> {
  readonly overlays: OverlayHub;
}

/** The overlay token's account, counted against that account's panel limit (CONTRACT §7). */
export function authenticateOverlay(
  ctx: OverlayTokenContext,
  request: Request,
  set: HeaderBag,
): MaybePromise<Account> {
  const token = presentedCredentials(request).overlayToken;
  if (!token) throw notAuthenticated("This overlay link has no token; copy it again from the dashboard.");
  return andThen(ctx.accounts.byCredential("overlay-token", token), (account) => {
    if (!account) {
      return throwWhenReady(
        failedAuthentication(
          ctx.limits,
          request,
          notAuthenticated(
            "This overlay token is not valid (it may have been replaced); copy the overlay link again.",
          ),
        ),
      );
    }
    return andThen(enforceLimit(set, ctx.limits.accounts.checkPanel(account), "panel"), () => account);
  });
}

function publicState(stored: StoredOverlayState) {
  return {
    state: stored.state,
    version: stored.version,
    updated_at: stored.updatedAt ? new Date(stored.updatedAt).toISOString() : null,
  };
}

function eventStream(ctx: OverlayRoutesContext, request: Request, account: Account): Response {
  const lastSeen = Number(request.headers.get("last-event-id") ?? Number.NaN);
  return overlayEventStream(ctx, request, account, ctx.overlays, async (stream) => {
    // Versions only grow: one already sent (a catch-up after a Redis hiccup repeats it) is skipped.
    let sent = -1;
    const send = (stored: StoredOverlayState) => {
      if (sent !== -1 && stored.version <= sent) return;
      sent = stored.version;
      stream.write(`id: ${stored.version}\nevent: state\ndata: ${JSON.stringify(publicState(stored))}\n\n`);
    };
    // Listening starts before the stored state is read, so a publish in between is not missed; what
    // arrives before the read is held, and whichever of the two is newer goes out first.
    let loaded = false;
    let early: StoredOverlayState | null = null;
    stream.onClose(
      ctx.overlays.subscribe(account.id, (stored) => {
        if (loaded) send(stored);
        else if (!early || stored.version > early.version) early = stored;
      }),
    );
    const current = await loadOverlayState(ctx.db, account.id);
    loaded = true;
    // (Assigned by the listener above, which TypeScript's narrowing does not see.)
    const held = early as StoredOverlayState | null;
    const newest = held && held.version > current.version ? held : current;
    // A reconnecting overlay (Last-Event-ID) only gets the state again when it missed a publish.
    if (newest.version !== lastSeen) send(newest);
    else sent = newest.version;
  });
}

const OVERLAY_SECURITY: Record<string, string[]>[] = [{ overlayTokenQuery: [] }, { overlayTokenHeader: [] }];

/** Overlay reads (overlay token) and the dashboard's publish. */
export function overlayRoutes(ctx: OverlayRoutesContext) {
  const reads = new Elysia({ name: "cuebot.overlay-reads", prefix: "/api/overlay" })
    .derive(async ({ request, set }) => ({
      account: await authenticateOverlay(ctx, request, set as HeaderBag),
    }))
    .get(
      "/state",
      async ({ account }) => ({
        status: 200 as const,
        data: publicState(await loadOverlayState(ctx.db, account.id)),
      }),
      {
        detail: {
          summary: "The account's published overlay state",
          tags: ["overlay"],
          security: OVERLAY_SECURITY,
        },
      },
    )
    .get("/events", ({ account, request }) => eventStream(ctx, request, account), {
      detail: {
        summary: "Server-Sent Events: `state` on every publish (id = version), heartbeats every 15 s",
        description: STREAM_CAP_NOTE,
        tags: ["overlay"],
        security: OVERLAY_SECURITY,
      },
    });

  const publish = new Elysia({ name: "cuebot.overlay-publish", prefix: "/api/dashboard/overlay" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "",
      async ({ principal: { account } }) => {
        const token = await revealCredential(ctx.db, ctx.secrets, "overlay-token", account.id);
        return {
          status: 200 as const,
          data: {
            ...publicState(await loadOverlayState(ctx.db, account.id)),
            overlay_url: token ? `${ctx.publicUrl}/overlay/${encodeURIComponent(token)}` : null,
            connections: ctx.overlays.connections(account.id),
          },
        };
      },
      {
        detail: {
          summary: "The overlay's state, its OBS link and how many overlays are connected",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .post(
      "/state",
      async ({ principal: { account }, body }) => {
        const state = body.state;
        if (typeof state !== "object" || state === null || Array.isArray(state)) {
          throw badRequest('The body field "state" must be a JSON object.');
        }
        if (containsNul(state)) {
          throw badRequest('The body field "state" must not contain the NUL character (\\u0000).');
        }
        const size = new TextEncoder().encode(JSON.stringify(state)).length;
        if (size > MAX_OVERLAY_STATE_BYTES) {
          throw badRequest(
            `The body field "state" is ${size} bytes; overlays accept at most ${MAX_OVERLAY_STATE_BYTES}.`,
          );
        }
        const stored = await publishOverlayState(
          ctx.db,
          account.id,
          state as Record<string, unknown>,
          ctx.clock.now(),
        );
        ctx.overlays.publish(account.id, stored);
        return { status: 200 as const, data: publicState(stored) };
      },
      {
        body: t.Object({
          state: t.Unknown({ description: "any JSON object; the built-in overlay shows `title` and `text`" }),
        }),
        detail: {
          summary: "Publish new overlay state to every connected overlay",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );

  return new Elysia({ name: "cuebot.overlay" }).use(reads).use(publish);
}
