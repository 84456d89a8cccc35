/**
 * How panel routes describe themselves in /docs: the session cookie is the credential, and every
 * state-changing call must send our Origin (CONTRACT §4) — say so where an API user will look.
 */
export const PANEL_SECURITY: Record<string, string[]>[] = [{ session: [] }];

export const ORIGIN_NOTE =
  "Needs the `app_sess` session cookie. State-changing calls (POST, PUT, DELETE) must also send `Origin: <public URL>`, or they are refused with 403 `bad_origin`.";
