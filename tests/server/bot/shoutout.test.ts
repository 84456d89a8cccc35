import { expect, test } from "bun:test";
import { shoutoutText } from "../../../server/bot/shoutout.ts";

test("shoutout templates replace every placeholder", () => {
  expect(
    shoutoutText("{name} {game} {title} {link} {name}", { name: "N", game: "G", title: "T", link: "L" }),
  ).toBe("N G T L N");
});
