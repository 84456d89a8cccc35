import type { SimUser } from "../world.ts";
import { all, helixError, json } from "./http.ts";
import type { HelixEnvironment, HelixRouteList } from "./route.ts";

/** The users resource (reference/twitch.md §2.1). */
export function userRoutes({ world }: HelixEnvironment): HelixRouteList {
  return [
    // §2.1 Get Users.
    [
      "GET /users",
      {
        userToken: false,
        scopes: [],
        handle({ query, caller }) {
          const ids = all(query, "id");
          const logins = all(query, "login").map((l) => l.toLowerCase());
          if (ids.length + logins.length > 100) {
            return helixError(400, "The number of id and login parameters exceeds 100");
          }
          let found: SimUser[];
          if (ids.length === 0 && logins.length === 0) {
            if (!caller.userId) return helixError(400, "The id or login query parameter is required");
            found = world.users.filter((u) => u.id === caller.userId);
          } else {
            found = world.users.filter((u) => ids.includes(u.id) || logins.includes(u.login));
          }
          const data = found.map((u) => {
            const { email, ...rest } = u;
            // email only for the token's own user, and only with user:read:email.
            return u.id === caller.userId && caller.scopes.includes("user:read:email")
              ? { ...rest, email }
              : rest;
          });
          return json(200, { data });
        },
      },
    ],
  ];
}
