import { describe, expect, test } from "bun:test";
import { QueryParams } from "../../../server/http/query-params.ts";

/** Every query is read as URLSearchParams reads it: the first value of each name. */
function standard(raw: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(raw)) if (!values.has(name)) values.set(name, value);
  return values;
}

const QUERIES = [
  "",
  "?",
  "apiKey=8c9a2f0e-1234-4abc-8def-0123456789ab&channel=streamer&user=viewer_anna",
  "user=a&user=b",
  "a&b=&=c&&d=1=2",
  "user=%40Anna+Lee&question=will+it+rain%3F",
  "name%20with%20space=x%2By",
  "q=%E2%9C%93%20ok",
  "q=%zz&r=1",
  "q=%E0%A4%A&r=%FF",
  "q=100%",
  "format=TEXT&format=json",
  "user=$(touser)&channel=$(channel)",
];

describe("query parameters", () => {
  for (const raw of QUERIES) {
    test(`reads ${JSON.stringify(raw)} as URLSearchParams does`, () => {
      const params = new QueryParams(raw);
      const expected = standard(raw.startsWith("?") ? raw.slice(1) : raw);
      for (const [name, value] of expected) {
        expect(params.get(name)).toBe(value);
        expect(params.has(name)).toBe(true);
      }
      expect(params.get("absent")).toBeNull();
      expect(params.has("absent")).toBe(false);
    });
  }
});
