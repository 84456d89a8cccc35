import { Elysia, t } from "elysia";
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { addQuote, countQuotes, deleteQuote, editQuote, listQuotes } from "../../db/quotes.ts";
import { ApiError } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import {
  bodyObject,
  FIELD_HEADER,
  integerQuery,
  nullableTextField,
  panelDetail,
  refusalsAnswered,
  rowNumberParam,
  textField,
} from "./chat-bot-input.ts";
import { firstValue } from "./query.ts";

/**
 * The dashboard's quotes (issue 24; `!quote`, `!addquote`, `!delquote` in chat): a searchable list
 * by number, page by page, and adding, editing and deleting them. Numbers are never given again after
 * a delete (db/quotes.ts), so `!quote 12` keeps meaning the same quote or none.
 */

const ADD_EXAMPLE = '{"text": "I never miss. — the streamer, missing", "game": "VALORANT"}';
const EDIT_EXAMPLE = '{"text": "Fixed wording", "game": null}';

const noSuchQuote = (number: number) =>
  new ApiError(404, "not_found", `There is no quote #${number}.`, { [FIELD_HEADER]: "number" });

/** The list's query parameters are named as such in refusals. */
const inQuery = () => "query parameter" as const;

export function quoteRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-quotes", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/quotes",
      async ({ principal: { account }, request }) => {
        const matching = firstValue(request, "search");
        const after = integerQuery(firstValue(request, "after"), "after");
        const limit = integerQuery(firstValue(request, "limit"), "limit");
        const page = await refusalsAnswered(
          () => listQuotes(ctx.db, account.id, { matching, after, limit }),
          inQuery,
        );
        return {
          status: 200 as const,
          data: {
            items: page.items,
            next: page.next,
            total: await countQuotes(ctx.db, account.id, matching),
            limit: CHAT_BOT_LIMITS.quotesPerAccount,
          },
        };
      },
      {
        detail: panelDetail(
          "This channel's quotes by number, a page at a time, optionally only those holding a text",
          "Query: `search` (case-insensitive, in the text), `after` (the previous page's `next`), `limit` (1–100, default 20). `data: {items: [{number, text, game, createdAt, updatedAt}], next, total, limit}`; `total` counts what the search matches.",
        ),
      },
    )
    .post(
      "/quotes",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(body, ["text", "game"], ADD_EXAMPLE);
        const text = textField(fields, "text", true);
        const game = nullableTextField(fields, "game");
        const quote = await refusalsAnswered(() =>
          addQuote(ctx.db, account.id, { text, game }, ctx.clock.now()),
        );
        return { status: 200 as const, data: quote };
      },
      {
        body: t.Unknown({ description: ADD_EXAMPLE }),
        detail: panelDetail(
          "Add a quote under the next number",
          "Fields: `text` (≤ 500 characters, one line), optional `game` (≤ 200, or null). A channel keeps at most 10,000 quotes (409 `limit_reached`).",
        ),
      },
    )
    .put(
      "/quotes/:number",
      async ({ principal: { account }, params, body }) => {
        const number = rowNumberParam(params.number, "number");
        const fields = bodyObject(body, ["text", "game"], EDIT_EXAMPLE);
        const changes = {
          ...(fields.text !== undefined ? { text: textField(fields, "text", true) } : {}),
          ...(fields.game !== undefined ? { game: nullableTextField(fields, "game") ?? null } : {}),
        };
        const quote = await refusalsAnswered(() =>
          editQuote(ctx.db, account.id, number, changes, ctx.clock.now()),
        );
        if (!quote) throw noSuchQuote(number);
        return { status: 200 as const, data: quote };
      },
      {
        body: t.Unknown({ description: EDIT_EXAMPLE }),
        detail: panelDetail("Edit a quote's text or game (null clears the game); what is not given stays"),
      },
    )
    .delete(
      "/quotes/:number",
      async ({ principal: { account }, params }) => {
        const number = rowNumberParam(params.number, "number");
        if (!(await deleteQuote(ctx.db, account.id, number))) throw noSuchQuote(number);
        return { status: 200 as const, data: { number, deleted: true } };
      },
      { detail: panelDetail("Delete a quote; its number is not given to another") },
    );
}
