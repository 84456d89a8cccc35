import { describe, expect, test } from "bun:test";
import { noneMatchHits } from "../../../server/http/replies.ts";

/** If-None-Match by RFC 9110's weak comparison (§13.1.2), against the strong tag of a prepared answer. */
describe("If-None-Match", () => {
  const etag = '"abc-1z"';

  test("the tag itself, in its weak form, in a list, or *", () => {
    expect(noneMatchHits(etag, etag)).toBe(true);
    expect(noneMatchHits(`W/${etag}`, etag)).toBe(true);
    expect(noneMatchHits(`"x", ${etag}`, etag)).toBe(true);
    expect(noneMatchHits(`W/"x",W/${etag}`, etag)).toBe(true);
    expect(noneMatchHits(" * ", etag)).toBe(true);
  });

  test("no header, another tag, an unquoted tag or a prefix of ours do not match", () => {
    expect(noneMatchHits(null, etag)).toBe(false);
    expect(noneMatchHits('"abc"', etag)).toBe(false);
    expect(noneMatchHits("abc-1z", etag)).toBe(false);
    expect(noneMatchHits('"abc-1z-more"', etag)).toBe(false);
    expect(noneMatchHits("", etag)).toBe(false);
  });
});
