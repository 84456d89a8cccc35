import { describe, expect, test } from "bun:test";
import { FollowedAtCache, type FollowFacts } from "../../../server/cache/followed-at-cache.ts";
import { RoleCache, RoleCaches } from "../../../server/cache/role-cache.ts";
import { ManualClock } from "../../../server/core/clock.ts";

/** A loader that counts its calls and answers when told to. */
function controlledLoader<V>() {
  let calls = 0;
  const waiting: { resolve: (value: V) => void; reject: (error: Error) => void }[] = [];
  return {
    load: () =>
      new Promise<V>((resolve, reject) => {
        calls++;
        waiting.push({ resolve, reject });
      }),
    get calls() {
      return calls;
    },
    resolveAll(value: V) {
      for (const w of waiting.splice(0)) w.resolve(value);
    },
    rejectAll(error: Error) {
      for (const w of waiting.splice(0)) w.reject(error);
    },
  };
}

describe("role-aware caches", () => {
  test("command caches live for the role's command TTL (§8.1)", () => {
    const clock = new ManualClock();
    const caches = new RoleCaches({ clock });
    const shoutout = caches.command<string>("shoutout");
    shoutout.set("default-channel", "Default", "a");
    shoutout.set("partner-channel", "Partner", "b");
    clock.advance(59_999);
    expect(shoutout.get("default-channel")).toBe("a");
    clock.advance(1);
    expect(shoutout.get("default-channel")).toBeUndefined();
    clock.advance(239_999 - 60_000);
    expect(shoutout.get("partner-channel")).toBe("b");
    clock.advance(1);
    expect(shoutout.get("partner-channel")).toBeUndefined();
  });

  test("panel caches live for §8.3's lifetime of the resource and role", () => {
    const clock = new ManualClock();
    const live = new RoleCaches({ clock }).panel<boolean>("live");
    live.set("vip", "VIP", true);
    live.set("pro", "Pro", true);
    clock.advance(15_000);
    expect(live.get("vip")).toBeUndefined();
    expect(live.get("pro")).toBe(true);
    clock.advance(15_000);
    expect(live.get("pro")).toBeUndefined();
  });

  test("the same name gives the same cache; names are separate", () => {
    const caches = new RoleCaches({ clock: new ManualClock() });
    caches.command<number>("magic8").set("k", "Default", 1);
    expect(caches.command<number>("magic8").get("k")).toBe(1);
    expect(caches.command<number>("clip").get("k")).toBeUndefined();
    expect(caches.panel<number>("clips").get("k")).toBeUndefined();
  });

  test("concurrent identical misses make one loader call (single flight)", async () => {
    const cache = new RoleCache<string>({ clock: new ManualClock(), max: 100, ttlMs: () => 60_000 });
    const loader = controlledLoader<string>();
    const answers = Array.from({ length: 50 }, () => cache.getOrLoad("chatters:1", "Default", loader.load));
    const other = cache.getOrLoad("chatters:2", "Default", loader.load);
    expect(loader.calls).toBe(2);
    loader.resolveAll("fresh");
    expect(await Promise.all(answers)).toEqual(Array(50).fill("fresh"));
    expect(await other).toBe("fresh");
    expect(await cache.getOrLoad("chatters:1", "Default", loader.load)).toBe("fresh");
    expect(loader.calls).toBe(2);
  });

  test("a failed load is not cached; the next caller tries again", async () => {
    const cache = new RoleCache<string>({ clock: new ManualClock(), max: 100, ttlMs: () => 60_000 });
    const loader = controlledLoader<string>();
    const first = cache.getOrLoad("k", "Default", loader.load);
    loader.rejectAll(new Error("upstream down"));
    await expect(first).rejects.toThrow("upstream down");
    const second = cache.getOrLoad("k", "Default", loader.load);
    loader.resolveAll("ok");
    expect(await second).toBe("ok");
    expect(loader.calls).toBe(2);
  });

  test("with staleOnError, an expired value answers while the upstream fails", async () => {
    const clock = new ManualClock();
    const cache = new RoleCache<string>({ clock, max: 100, ttlMs: () => 10_000, staleOnError: true });
    cache.set("k", "Default", "old");
    clock.advance(10_000);
    const loader = controlledLoader<string>();
    const answer = cache.getOrLoad("k", "Default", loader.load);
    loader.rejectAll(new Error("upstream down"));
    expect(await answer).toBe("old");
  });

  test("flush forgets entries, and a load begun before the flush does not write back", async () => {
    const clock = new ManualClock();
    const caches = new RoleCaches({ clock });
    const profile = caches.panel<string>("profile");
    profile.set("1", "Default", "before");
    const loader = controlledLoader<string>();
    const slow = profile.getOrLoad("2", "Default", loader.load);
    caches.flush();
    expect(profile.get("1")).toBeUndefined();
    // A caller after the flush does not join the old load.
    const fresh = profile.getOrLoad("2", "Default", loader.load);
    expect(loader.calls).toBe(2);
    loader.resolveAll("answer");
    await Promise.all([slow, fresh]);
    expect(profile.get("2")).toBe("answer");
    expect(profile.size).toBe(1);
  });

  test("entries are bounded by count", () => {
    const cache = new RoleCache<number>({ clock: new ManualClock(), max: 100, ttlMs: () => 60_000 });
    for (let i = 0; i < 1_000; i++) {
      cache.set(`k${i}`, "Default", i);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.get("k999")).toBe(999);
    expect(cache.get("k0")).toBeUndefined();
  });
});

describe("followage cache", () => {
  test("caches the follow date and recomputes the elapsed time on every hit", async () => {
    const clock = new ManualClock();
    const caches = new RoleCaches({ clock });
    const followedAt = clock.now() - 3_600_000;
    let loads = 0;
    const load = async (): Promise<FollowFacts> => {
      loads++;
      return { following: true, followedAt };
    };
    const first = await caches.followedAt.followage("100", "Viewer", "Default", load);
    expect(first.elapsedMs).toBe(3_600_000);
    clock.advance(30_000);
    const second = await caches.followedAt.followage("100", "viewer", "Default", load);
    expect(second).toEqual({ following: true, followedAt, elapsedMs: 3_630_000 });
    expect(loads).toBe(1);
    // The Default command TTL (60 s) ends the entry.
    clock.advance(30_000);
    await caches.followedAt.followage("100", "viewer", "Default", load);
    expect(loads).toBe(2);
  });

  test("a non-follower has no elapsed time", async () => {
    const clock = new ManualClock();
    const cache = new FollowedAtCache(new RoleCache({ clock, max: 10, ttlMs: () => 60_000 }), clock);
    const result = await cache.followage("1", "x", "Pro", async () => ({
      following: false,
      followedAt: null,
    }));
    expect(result).toEqual({ following: false, followedAt: null, elapsedMs: null });
  });
});
