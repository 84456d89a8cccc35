import { Elysia } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { getAlertAsset } from "../../db/alert-assets.ts";
import type { CoreContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { recentOverlayAlerts } from "./alert-catch-up.ts";
import { AlertFeed, type AlertHub } from "./alert-hub.ts";
import { authenticateOverlay } from "./routes.ts";
import { type OverlayTokenContext, overlayEventStream, STREAM_CAP_NOTE } from "./routes-stream.ts";

type HeaderBag = { headers: Record<string, string | number> };

/**
 * What else rides on an open alert stream, for the page that opened it (`?page=`, one id per page
 * load): the OBS relay's settings and steps (obs/relay.ts fills it). Returns the way to stop.
 */
export interface AlertStreamRider {
  attach(accountId: number, page: string | null, write: (text: string) => void): () => void;
}

/** What the alert routes read: the token checks, the stored alerts and assets, the live alert streams. */
interface AlertRoutesContext extends OverlayTokenContext, Pick<CoreContext, "db" | "clock"> {
  readonly alerts: AlertHub;
  readonly obs: { readonly relay: AlertStreamRider };
}

/** A page id as the overlay page makes it (a UUID), or null. */
function pageOf(url: URL): string | null {
  const page = url.searchParams.get("page");
  return page && /^[A-Za-z0-9-]{1,64}$/.test(page) ? page : null;
}

const OVERLAY_SECURITY: Record<string, string[]>[] = [{ overlayTokenQuery: [] }, { overlayTokenHeader: [] }];

/** An alert id as the overlay sends it back (Last-Event-ID or `?after=`); anything else is 0. */
function shownUpTo(text: string | null | undefined): number {
  if (!text || !/^\d{1,15}$/.test(text.trim())) return 0;
  return Number(text.trim());
}

/**
 * The account's alerts as Server-Sent Events: first the ones after the id the overlay says it showed
 * (Last-Event-ID, else `?after=`) from the last minute, then each new one; every alert once.
 */
function alertStream(ctx: AlertRoutesContext, request: Request, account: Account): Response {
  const url = new URL(request.url);
  const after = shownUpTo(request.headers.get("last-event-id") ?? url.searchParams.get("after"));
  return overlayEventStream(ctx, request, account, ctx.alerts, async (stream) => {
    // Listening starts before the catch-up is read, so an alert in between is not missed: the feed
    // holds live ones until the catch-up is in, then hands both on in id order, each once.
    const feed = new AlertFeed(
      (alert) => stream.write(`id: ${alert.id}\nevent: alert\ndata: ${JSON.stringify(alert)}\n\n`),
      { after, hold: true },
    );
    stream.onClose(ctx.alerts.subscribe(account.id, feed));
    stream.onClose(ctx.obs.relay.attach(account.id, pageOf(url), stream.write));
    feed.release(await recentOverlayAlerts(ctx.db, account.id, after, ctx.clock.now()));
  });
}

/** An uploaded image or sound, to the overlay of the account that owns it. */
async function assetResponse(ctx: AlertRoutesContext, account: Account, idText: string): Promise<Response> {
  const id = /^\d{1,10}$/.test(idText) ? Number(idText) : 0;
  const asset = id > 0 ? await getAlertAsset(ctx.db, account.id, id) : null;
  if (!asset) throw notFound("There is no such alert image or sound (it may have been deleted).");
  return new Response(new Uint8Array(asset.bytes), {
    headers: {
      "content-type": asset.contentType,
      "content-length": String(asset.bytes.byteLength),
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=3600",
      // Bytes, never a page: nothing in them runs even when opened on their own.
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}

/** The overlay's alerts (overlay token): the live stream with its catch-up, and the uploaded assets. */
export function overlayAlertRoutes(ctx: AlertRoutesContext) {
  return new Elysia({ name: "cuebot.overlay-alerts", prefix: "/api/overlay" })
    .derive(async ({ request, set }) => ({
      account: await authenticateOverlay(ctx, request, set as HeaderBag),
    }))
    .get("/alerts", ({ account, request }) => alertStream(ctx, request, account), {
      detail: {
        summary:
          "Server-Sent Events: `alert` per alert (id = the alert's id, data = the alert), first the last minute's after Last-Event-ID or `after`",
        description: `${STREAM_CAP_NOTE} With \`page\` (the page's id) and the account's OBS set to \`via: overlay\`, also \`obs\` (where OBS listens and its password, or \`{"enabled": false}\`) at once and after each change, and \`obs-step\` (one OBS step to carry out, answered on POST /api/overlay/obs/answer).`,
        tags: ["overlay"],
        security: OVERLAY_SECURITY,
      },
    })
    .get("/assets/:id", ({ account, params }) => assetResponse(ctx, account, params.id), {
      detail: {
        summary: "An alert image or sound the account uploaded, with its stored content type",
        tags: ["overlay"],
        security: OVERLAY_SECURITY,
      },
    });
}
