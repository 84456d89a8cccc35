import { Elysia, t } from "elysia";

export function healthRoutes() {
  return new Elysia({ name: "cuebot.health" }).get(
    "/healthz",
    () => ({ status: 200 as const, data: { ok: true } }),
    {
      response: t.Object({ status: t.Literal(200), data: t.Object({ ok: t.Boolean() }) }),
      detail: { summary: "Liveness check", tags: ["system"] },
    },
  );
}
