/**
 * Quote lines answered from the store (db/quotes.ts): who may change quotes is checked by the
 * service before this runs; a store refusal (a text too long, 10,000 quotes) is its one sentence.
 */
import type { Account } from "../../db/accounts.ts";
import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { addQuote, deleteQuote, getQuote, randomQuote } from "../../db/quotes.ts";
import type { CustomContext } from "./context.ts";
import { QUOTE_REPLIES, type QuoteRequest } from "./quote-lines.ts";
import { currentGame } from "./resolvers.ts";

export async function answerQuoteLine(
  ctx: CustomContext,
  account: Account,
  request: QuoteRequest,
): Promise<string> {
  const { db } = ctx;
  switch (request.kind) {
    case "random": {
      const quote = await randomQuote(db, account.id, ctx.random);
      return quote ? QUOTE_REPLIES.shown(quote) : QUOTE_REPLIES.none();
    }
    case "number": {
      const quote = await getQuote(db, account.id, request.number);
      return quote ? QUOTE_REPLIES.shown(quote) : QUOTE_REPLIES.notFound(request.number);
    }
    case "search": {
      const quote = await randomQuote(db, account.id, ctx.random, request.words);
      return quote ? QUOTE_REPLIES.shown(quote) : QUOTE_REPLIES.noMatch();
    }
    case "add": {
      const game = await currentGame(ctx, account);
      try {
        return QUOTE_REPLIES.added(
          await addQuote(db, account.id, { text: request.text, game }, ctx.clock.now()),
        );
      } catch (error) {
        if (error instanceof ChatBotDataError) return error.message;
        throw error;
      }
    }
    case "delete":
      return (await deleteQuote(db, account.id, request.number))
        ? QUOTE_REPLIES.deleted(request.number)
        : QUOTE_REPLIES.notFound(request.number);
    case "usage":
      return request.reply;
  }
}
