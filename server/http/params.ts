import { t } from "elysia";

/**
 * Routes declare their query parameters as strings in their `t` schema, which feeds /docs; the
 * handler reads them by hand (server/core/params.ts) so every 400 names the parameter.
 */

/** A documented string query parameter (validated by the handler). */
export const queryString = (description: string) => t.Optional(t.String({ description }));
