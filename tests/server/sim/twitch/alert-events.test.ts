import { describe, expect, test } from "bun:test";
import {
  cheerEvent,
  type EventContext,
  followEvent,
  giftEvent,
  offlineEvent,
  onlineEvent,
  raidEvent,
  redemptionEvent,
  resubEvent,
  subscribeEvent,
} from "../../../../server/sim/twitch/eventsub/alert-events.ts";

/**
 * The simulator's alert payloads against the examples of reference/alerts.md §1 (taken from Twitch's
 * EventSub reference): the same keys, in the same order, with the same value types (null where the
 * example has null), nested objects included.
 */

const REFERENCE = {
  follow: `{"user_id":"90211","user_login":"mossy_owl","user_name":"Mossy_Owl","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","followed_at":"2026-03-14T19:02:11.171067130Z"}`,
  subscribe: `{"user_id":"77120","user_login":"fernwick","user_name":"Fernwick","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","tier":"1000","is_gift":false}`,
  resub: `{"user_id":"77120","user_login":"fernwick","user_name":"Fernwick","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","tier":"2000","message":{"text":"14 months already Kappa","emotes":[{"begin":18,"end":22,"id":"25"}]},"cumulative_months":14,"streak_months":null,"duration_months":1}`,
  anonymousGift: `{"user_id":null,"user_login":null,"user_name":null,"broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","total":5,"tier":"1000","cumulative_total":null,"is_anonymous":true}`,
  cheer: `{"is_anonymous":false,"user_id":"90211","user_login":"mossy_owl","user_name":"Mossy_Owl","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","message":"Cheer100 gg on that boss","bits":100}`,
  raid: `{"from_broadcaster_user_id":"3301","from_broadcaster_user_login":"quillandkettle","from_broadcaster_user_name":"QuillAndKettle","to_broadcaster_user_id":"41245072","to_broadcaster_user_login":"kestrelplays","to_broadcaster_user_name":"KestrelPlays","viewers":38}`,
  redemption: `{"id":"1b5f7e8a-4c1e-4d1a-9a51-0f6c2d8e7a10","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","user_id":"90211","user_login":"mossy_owl","user_name":"Mossy_Owl","user_input":"play the kazoo","status":"unfulfilled","reward":{"id":"92af127c-7326-4483-a52b-b0da0be61c01","title":"Kazoo solo","cost":500,"prompt":"Name a song"},"redeemed_at":"2026-03-14T19:10:03.17106713Z"}`,
  online: `{"id":"40261982654","broadcaster_user_id":"41245072","broadcaster_user_login":"kestrelplays","broadcaster_user_name":"KestrelPlays","type":"live","started_at":"2026-03-14T18:00:05Z"}`,
} as const;

/** A value's shape: its type, with objects' keys in order and arrays by their first item. */
function shape(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? ["empty"] : [shape(value[0])];
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return typeof value;
}

const ctx: EventContext = {
  broadcaster: { id: "41245072", login: "kestrelplays", display_name: "KestrelPlays" },
  user: { id: "90211", login: "mossy_owl", display_name: "Mossy_Owl" },
  now: Date.UTC(2026, 2, 14, 19, 2, 11, 171),
};

const sameShape = (built: object, reference: string) =>
  expect(shape(built)).toEqual(shape(JSON.parse(reference)));

describe("alert payloads match Twitch's examples key for key", () => {
  test("follow, subscribe, cheer, raid, redemption and stream.online/offline", () => {
    sameShape(followEvent(ctx), REFERENCE.follow);
    sameShape(subscribeEvent(ctx), REFERENCE.subscribe);
    sameShape(cheerEvent(ctx), REFERENCE.cheer);
    sameShape(raidEvent(ctx), REFERENCE.raid);
    sameShape(redemptionEvent(ctx), REFERENCE.redemption);
    sameShape(onlineEvent(ctx), REFERENCE.online);
    expect(offlineEvent(ctx)).toEqual({
      broadcaster_user_id: "41245072",
      broadcaster_user_login: "kestrelplays",
      broadcaster_user_name: "KestrelPlays",
    });
  });

  test("the examples' values come out when the builders are given them", () => {
    const follow = followEvent(ctx, { followed_at: "2026-03-14T19:02:11.171067130Z" });
    expect(follow).toEqual(JSON.parse(REFERENCE.follow));
    const resub = resubEvent(
      { ...ctx, user: { id: "77120", login: "fernwick", display_name: "Fernwick" } },
      { tier: "2000", streak_months: null },
    );
    expect(resub).toEqual(JSON.parse(REFERENCE.resub));
    const gift = giftEvent(ctx, { total: 5, anonymous: true });
    expect(gift).toEqual(JSON.parse(REFERENCE.anonymousGift));
    expect(cheerEvent(ctx)).toEqual(JSON.parse(REFERENCE.cheer));
    const raider = { id: "3301", login: "quillandkettle", display_name: "QuillAndKettle" };
    expect(raidEvent({ ...ctx, user: raider })).toEqual(JSON.parse(REFERENCE.raid));
    const redemption = redemptionEvent(ctx, {
      id: "1b5f7e8a-4c1e-4d1a-9a51-0f6c2d8e7a10",
      user_input: "play the kazoo",
    });
    expect({ ...redemption, redeemed_at: "x" }).toEqual({
      ...JSON.parse(REFERENCE.redemption),
      redeemed_at: "x",
    });
  });

  test("timestamps are RFC 3339 with nanoseconds (followed_at, redeemed_at) or seconds (started_at)", () => {
    expect(followEvent(ctx).followed_at).toMatch(/^2026-03-14T19:02:11\.171\d{6}Z$/);
    expect(redemptionEvent(ctx).redeemed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(onlineEvent(ctx).started_at).toBe("2026-03-14T19:02:11Z");
  });

  test("overrides: anonymous gift and cheer, a resub with null streak and emotes, a named gifter's cumulative total", () => {
    const cheer = cheerEvent(ctx, { anonymous: true, bits: 1 });
    expect(cheer).toMatchObject({
      is_anonymous: true,
      user_id: null,
      user_login: null,
      user_name: null,
      bits: 1,
    });
    expect(cheer.message).toBe("Cheer1 gg on that boss");
    sameShape(cheerEvent(ctx), REFERENCE.cheer);
    const resub = resubEvent(ctx, { streak_months: null, emotes: null, message: "" });
    expect(resub.message).toEqual({ text: "", emotes: null });
    expect(resub.streak_months).toBeNull();
    expect(resubEvent(ctx).streak_months).toBe(14);
    expect(giftEvent(ctx, { total: 3 })).toMatchObject({
      user_name: "Mossy_Owl",
      total: 3,
      cumulative_total: 3,
    });
    expect(giftEvent(ctx, { cumulative_total: null }).cumulative_total).toBeNull();
  });

  test("a resub's Kappa emotes are found by position; odd Unicode names pass through untouched", () => {
    expect(resubEvent(ctx, { message: "Kappa and Kappa" }).message.emotes).toEqual([
      { begin: 0, end: 4, id: "25" },
      { begin: 10, end: 14, id: "25" },
    ]);
    const odd = "\u202Eevil\u200B👩‍👩‍👧";
    expect(followEvent({ ...ctx, userName: odd }).user_name).toBe(odd);
    expect(raidEvent({ ...ctx, userName: odd }).from_broadcaster_user_name).toBe(odd);
  });

  test("a redemption's reward merges the given fields onto the default reward", () => {
    const r = redemptionEvent(ctx, { reward: { title: "Hydrate!", cost: 1 }, status: "fulfilled" });
    expect(r.reward).toEqual({
      id: "92af127c-7326-4483-a52b-b0da0be61c01",
      title: "Hydrate!",
      cost: 1,
      prompt: "Name a song",
    });
    expect(r.status).toBe("fulfilled");
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(redemptionEvent(ctx).id).not.toBe(r.id);
  });
});
