import { AlertDataError } from "../../db/alert-rules.ts";
import { ChatBotDataError } from "../../db/chat-bot-rules.ts";

/** The refusal `run` throws; a failure when it throws none, or another error (a crash). */
export async function refusal(run: () => Promise<unknown>): Promise<ChatBotDataError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ChatBotDataError) return error;
    throw error;
  }
  throw new Error("expected a ChatBotDataError, but the write went through");
}

/** The AlertDataError `run` throws (alerts' settings, history and uploads); a failure otherwise. */
export async function alertRefusal(run: () => Promise<unknown>): Promise<AlertDataError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AlertDataError) return error;
    throw error;
  }
  throw new Error("expected an AlertDataError, but the write went through");
}
