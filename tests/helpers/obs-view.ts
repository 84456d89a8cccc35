import type { ObsView } from "../../server/obs/dashboard.ts";

/** `GET /api/dashboard/obs`'s `data` as JSON: the server's view, its time as an ISO string. */
export type ObsViewJson = Omit<ObsView, "since"> & { since: string | null };
