import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { HELIX_OPENAPI, OpenApiValidator } from "../../../helpers/openapi.ts";

let sim: TwitchSimulator;
const helix = new OpenApiValidator(HELIX_OPENAPI);
beforeAll(() => {
  sim = startTwitchSimulator();
});
afterAll(async () => {
  await sim.stop();
});

async function get(path: string, token: string) {
  return fetch(`${sim.helixUrl}${path}`, {
    headers: { "Client-Id": sim.client.id, Authorization: `Bearer ${token}` },
  });
}

describe("the Twitch simulator answers like Helix", () => {
  test("GET /users validates against the Helix OpenAPI description", async () => {
    const { accessToken } = sim.issueUserToken("cuebotdemo", ["user:read:email"]);
    for (const query of ["", "?login=otherstreamer&login=viewer_anna", "?id=100008"]) {
      const res = await get(`/users${query}`, accessToken);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(helix.check("/users", "get", "200", body)).toEqual([]);
    }
  });

  test("email is only shown for the token's own user with user:read:email", async () => {
    const own = sim.issueUserToken("cuebotdemo", ["user:read:email"]).accessToken;
    const body = (await (await get("/users?login=cuebotdemo&login=otherstreamer", own)).json()) as {
      data: { login: string; email?: string }[];
    };
    expect(body.data.find((u) => u.login === "cuebotdemo")?.email).toBe("cuebotdemo@example.test");
    expect(body.data.find((u) => u.login === "otherstreamer")?.email).toBeUndefined();
  });

  test("every response carries Ratelimit-* headers; errors use {error, status, message}", async () => {
    const ok = await get("/users", sim.issueUserToken("cuebotdemo", []).accessToken);
    expect(ok.headers.get("ratelimit-limit")).toBe("800");
    expect(Number(ok.headers.get("ratelimit-remaining"))).toBeGreaterThan(0);
    expect(Number(ok.headers.get("ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    const bad = await get("/users", "nonsense");
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "Unauthorized", status: 401, message: "Invalid OAuth token" });
    const noClient = await fetch(`${sim.helixUrl}/users`, { headers: { Authorization: "Bearer x" } });
    expect(noClient.status).toBe(401);
  });

  test("a token used with another Client-Id is refused", async () => {
    const { accessToken } = sim.issueUserToken("cuebotdemo", []);
    const res = await fetch(`${sim.helixUrl}/users`, {
      headers: { "Client-Id": "someoneelse000000000000000000", Authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(401);
  });
});

describe("the identity provider simulator answers like id.twitch.tv", () => {
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

  test("token errors are {status, message} without an error key; a wrong secret is 403", async () => {
    const badCode = await fetch(
      `${sim.authUrl}/oauth2/token`,
      form({
        client_id: sim.client.id,
        client_secret: sim.client.secret,
        grant_type: "authorization_code",
        code: "nope",
        redirect_uri: "http://localhost/cb",
      }),
    );
    expect(badCode.status).toBe(400);
    expect(await badCode.json()).toEqual({ status: 400, message: "Invalid authorization code" });
    const badSecret = await fetch(
      `${sim.authUrl}/oauth2/token`,
      form({ client_id: sim.client.id, client_secret: "wrong", grant_type: "client_credentials" }),
    );
    expect(badSecret.status).toBe(403);
  });

  test("refresh returns scope as an array and rotates the refresh token", async () => {
    const issued = sim.issueUserToken("cuebotdemo", ["clips:edit"]);
    const res = await fetch(
      `${sim.authUrl}/oauth2/token`,
      form({
        client_id: sim.client.id,
        client_secret: sim.client.secret,
        grant_type: "refresh_token",
        refresh_token: issued.refreshToken,
      }),
    );
    const body = (await res.json()) as { scope: string[]; refresh_token: string; token_type: string };
    expect(body.scope).toEqual(["clips:edit"]);
    expect(body.token_type).toBe("bearer");
    expect(body.refresh_token).not.toBe(issued.refreshToken);
    const reuse = await fetch(
      `${sim.authUrl}/oauth2/token`,
      form({
        client_id: sim.client.id,
        client_secret: sim.client.secret,
        grant_type: "refresh_token",
        refresh_token: issued.refreshToken,
      }),
    );
    expect(reuse.status).toBe(400);
  });

  test("validate accepts OAuth and Bearer prefixes and omits login for app tokens", async () => {
    const { accessToken } = sim.issueUserToken("cuebotdemo", ["chat:read"]);
    for (const prefix of ["OAuth", "Bearer"]) {
      const res = await fetch(`${sim.authUrl}/oauth2/validate`, {
        headers: { Authorization: `${prefix} ${accessToken}` },
      });
      const body = (await res.json()) as { login: string; user_id: string; scopes: string[] };
      expect(body.login).toBe("cuebotdemo");
      expect(body.scopes).toEqual(["chat:read"]);
    }
    const app = (await (
      await fetch(
        `${sim.authUrl}/oauth2/token`,
        form({
          client_id: sim.client.id,
          client_secret: sim.client.secret,
          grant_type: "client_credentials",
        }),
      )
    ).json()) as { access_token: string };
    const appValidation = (await (
      await fetch(`${sim.authUrl}/oauth2/validate`, {
        headers: { Authorization: `OAuth ${app.access_token}` },
      })
    ).json()) as Record<string, unknown>;
    expect(appValidation.login).toBeUndefined();
    const invalid = await fetch(`${sim.authUrl}/oauth2/validate`, {
      headers: { Authorization: "OAuth nope" },
    });
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({ status: 401, message: "invalid access token" });
  });

  test("revoke: 200 empty, 400 for an unknown token, 404 for an unknown client", async () => {
    const { accessToken } = sim.issueUserToken("cuebotdemo", []);
    const ok = await fetch(
      `${sim.authUrl}/oauth2/revoke`,
      form({ client_id: sim.client.id, token: accessToken }),
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("");
    const again = await fetch(
      `${sim.authUrl}/oauth2/revoke`,
      form({ client_id: sim.client.id, token: accessToken }),
    );
    expect(again.status).toBe(400);
    const unknownClient = await fetch(`${sim.authUrl}/oauth2/revoke`, form({ client_id: "x", token: "y" }));
    expect(unknownClient.status).toBe(404);
  });
});
