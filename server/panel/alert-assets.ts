import { Elysia } from "elysia";
import {
  type AlertAsset,
  type AlertAssetInfo,
  addAlertAsset,
  deleteAlertAsset,
  getAlertAsset,
  listAlertAssets,
} from "../../db/alert-assets.ts";
import { ALERT_LIMITS } from "../../db/alert-rules.ts";
import { ALERT_ASSET_KINDS, type AlertAssetKind } from "../../db/schema-enums.ts";
import { notFound } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { alertRefusalsAnswered } from "./alert-input.ts";
import { fieldError, panelDetail, rowNumberParam } from "./chat-bot-input.ts";
import { firstValue } from "./query.ts";

/**
 * Alert images and sounds on the dashboard (issue 25). An upload is the file itself as the request's
 * body (whatever its Content-Type says: the store reads the type from the bytes), at most 1 MiB
 * (server/http/body-limit.ts gives this route that cap; a larger body is a 413 before it is read).
 * Kept in the database, so every instance's overlays get them (server/overlay/routes-alerts.ts).
 */

/** An asset as the dashboard lists it; the overlay plays it from `/api/overlay/assets/<id>`. */
function assetView(asset: AlertAssetInfo) {
  return {
    id: asset.id,
    kind: asset.kind,
    contentType: asset.contentType,
    size: asset.size,
    createdAt: new Date(asset.createdAt).toISOString(),
  };
}

/**
 * An upload's bytes as a response: the stored type, never sniffed, never run as a page, kept an hour
 * by this browser only. (The overlay's asset route answers the same way.)
 */
export function assetFileResponse(asset: AlertAsset): Response {
  return new Response(new Uint8Array(asset.bytes), {
    headers: {
      "content-type": asset.contentType,
      "content-length": String(asset.bytes.byteLength),
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=3600",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}

function kindOf(request: Request): AlertAssetKind {
  const raw = firstValue(request, "kind");
  const kind = ALERT_ASSET_KINDS.find((k) => k === raw);
  if (!kind) throw fieldError("query parameter", "kind", `must be one of ${ALERT_ASSET_KINDS.join(", ")}.`);
  return kind;
}

const UPLOAD_DESCRIPTION = `The body is the file itself (any Content-Type header: the type is read from the bytes). \`?kind=image\` takes PNG, JPEG, GIF or WebP; \`?kind=sound\` takes MP3, Ogg or WAV. At most ${ALERT_LIMITS.assetBytes / 1024 / 1024} MiB (413 \`payload_too_large\` over it) and ${ALERT_LIMITS.assetsPerAccount} files a channel (409 \`limit_reached\`); a file of another type is refused with 400 naming field \`file\`. Nothing is stored on a refusal. Answers \`data: {id, kind, contentType, size, createdAt}\`; use the id as a type's \`imageId\` or \`soundId\`.`;

/** Upload, list and delete alert images and sounds. */
export function alertAssetRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-alert-assets", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .post(
      "/alerts/assets",
      async ({ principal: { account }, request }) => {
        const kind = kindOf(request);
        const bytes = new Uint8Array(await request.arrayBuffer());
        const added = await alertRefusalsAnswered(
          () => addAlertAsset(ctx.db, account.id, bytes, kind, ctx.clock.now()),
          { rename: { bytes: "file" }, place: "upload" },
        );
        return { status: 200 as const, data: assetView(added) };
      },
      {
        parse: "none",
        detail: panelDetail("Upload an alert image or sound", UPLOAD_DESCRIPTION),
      },
    )
    .get(
      "/alerts/assets",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: {
          items: (await listAlertAssets(ctx.db, account.id)).map(assetView),
          limit: ALERT_LIMITS.assetsPerAccount,
        },
      }),
      {
        detail: panelDetail(
          "This channel's alert images and sounds, oldest first",
          "`data: {items: [{id, kind, contentType, size, createdAt}], limit}`.",
        ),
      },
    )
    .get(
      "/alerts/assets/:id",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        const asset = await getAlertAsset(ctx.db, account.id, id);
        if (!asset) throw notFound(`There is no uploaded file ${id}.`);
        return assetFileResponse(asset);
      },
      {
        detail: panelDetail(
          "One alert image or sound, to look at or listen to",
          "The file's bytes with its stored Content-Type (read from the bytes at upload), `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox`, `Cache-Control: private, max-age=3600`. 404 for an id this channel does not own.",
        ),
      },
    )
    .delete(
      "/alerts/assets/:id",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        if (!(await deleteAlertAsset(ctx.db, account.id, id)))
          throw notFound(`There is no uploaded file ${id}.`);
        return { status: 200 as const, data: { id, deleted: true } };
      },
      {
        detail: panelDetail(
          "Delete an alert image or sound",
          "The alert types that used it show none from then on.",
        ),
      },
    );
}
