// biome-ignore-all lint/suspicious/noTemplateCurlyInString: StreamElements' ${…} variables are literal text here.
import { describe, expect, test } from "bun:test";
import { type ImportFormat, planImport } from "../../../server/custom/import.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

/**
 * The variables of an imported response (server/custom/import-variables.ts), as the import's plan
 * shows them: the response cuebot will store, or the line saying why the command cannot be imported.
 */
function outcome(message: string, format: ImportFormat = "nightbot"): string {
  const body =
    format === "nightbot" ? { commands: [{ name: "x", message }] } : [{ command: "x", reply: message }];
  const result = planImport({ body, format: "detect", existingNames: [], builtinNamesOn: [] });
  return result.add[0]?.response ?? `refused: ${result.unsupported[0]?.why}`;
}

describe("variables of an imported response", () => {
  test("Nightbot variables cuebot has are kept; those it has not are refused by name", () => {
    expect(outcome("$(user) $(touser) $(query) $(count) $(channel) $(1) $(9)")).toBe(
      "$(user) $(touser) $(query) $(count) $(channel) $(1) $(9)",
    );
    expect(outcome('$(twitch $(channel) "{{game}}")')).toBe("$(game)");
    expect(outcome("$(querystring)")).toBe(
      "refused: It uses $(querystring), which cuebot has no equivalent for.",
    );
    expect(outcome("$(10)")).toBe("refused: It uses $(10), which cuebot has no equivalent for.");
    expect(outcome("$(weather $(query))")).toBe(
      "refused: It uses $(weather), which cuebot has no equivalent for.",
    );
    expect(outcome('$(time Europe/Berlin "HH:mm")')).toBe(
      "refused: It uses $(time) with a format or without a time zone.",
    );
    expect(outcome("$(user extra)")).toBe("refused: It uses $(user), which cuebot has no equivalent for.");
    expect(outcome("$(customapi https://example.com)")).toBe(
      "refused: It uses $(customapi), which fetches a URL; cuebot never fetches one.",
    );
  });

  test("a URL fetch is refused wherever it hides", () => {
    expect(outcome("$(eval $(urlfetch json https://x.example))")).toContain(
      "$(urlfetch), which fetches a URL",
    );
    expect(outcome("${random.pick '${customapi https://x.example}' 'b'}", "streamelements")).toContain(
      "fetches a URL",
    );
    expect(outcome("$( URLFETCH https://x.example)")).toContain("fetches a URL");
  });

  test("text that is not a variable stays as typed", () => {
    expect(outcome("Price: $(5 or ${user} for Nightbot")).toBe("Price: $(5 or ${user} for Nightbot");
    expect(outcome("unclosed $(user")).toBe("unclosed $(user");
  });

  test("StreamElements' forms, in either bracket, become cuebot's or are refused", () => {
    expect(outcome("$(user) ${sender} ${touser} ${1} ${1:}", "streamelements")).toBe(
      "$(user) $(user) $(touser) $(1) $(query)",
    );
    expect(outcome("${count deaths +1}", "streamelements")).toBe(
      "refused: It uses a named counter (${count name}).",
    );
    expect(outcome("${getcount deaths}", "streamelements")).toBe(
      "refused: It uses a named counter (${count name}).",
    );
    expect(outcome("${random 6-1}", "streamelements")).toBe(
      "refused: It uses ${random} with something other than a number range.",
    );
    expect(outcome("${random.pick 'a|b' 'c'}", "streamelements")).toBe(
      "refused: It uses ${random.pick} with choices cuebot cannot list as $(pick a|b|c).",
    );
    expect(outcome("${1.word}", "streamelements")).toBe(
      "refused: It uses ${1.word}, which cuebot has no equivalent for.",
    );
    expect(outcome("${user someone}", "streamelements")).toBe(
      "refused: It uses ${user}, which cuebot has no equivalent for.",
    );
  });

  test("a variable named with a link or odd characters is refused without repeating it", () => {
    // The dashboard may name a plain word (the streamer's own file), never a link or hidden characters.
    for (const troll of TROLL_TEXTS) {
      expect(outcome(`$(${troll})`)).toMatch(
        /^refused: It uses (a variable|\$\([a-z0-9_]+\), which) cuebot has no equivalent for\.$/,
      );
    }
    expect(outcome("$(https://evil.example/free-subs)")).toBe(
      "refused: It uses a variable cuebot has no equivalent for.",
    );
    // StreamElements has dotted names (random.pick), so a dotted word is named; a link never is.
    expect(outcome("${https://evil.example/free-subs}", "streamelements")).toBe(
      "refused: It uses a variable cuebot has no equivalent for.",
    );
  });
});
