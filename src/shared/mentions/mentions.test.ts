import { describe, expect, it } from "vitest";
import {
  maxMentionsPerMessage,
  mentionsToPlainText,
  mentionToken,
  parseMentions,
  splitMentions,
} from "./mentions.ts";

describe("mentions", () => {
  it("finds each mentioned person once, in order of first mention", () => {
    const text = "@[Ana Ortiz](usr_a) and @[Ben](usr_b), see above @[Ana Ortiz](usr_a)";
    expect(parseMentions(text)).toEqual([
      { userId: "usr_a", name: "Ana Ortiz" },
      { userId: "usr_b", name: "Ben" },
    ]);
  });

  it("ignores plain @words, e-mail addresses and broken tokens", () => {
    expect(parseMentions("ask @ana or ana@example.com, @[Ana](), @[](usr_a), @[Ana] (usr_a)")).toEqual([]);
    expect(parseMentions("@[Ana](usr a)")).toEqual([]);
  });

  it("notifies at most a fixed number of people per message", () => {
    const text = Array.from({ length: 30 }, (_, i) => `@[P${i}](usr_${i})`).join(" ");
    expect(parseMentions(text)).toHaveLength(maxMentionsPerMessage);
  });

  it("builds a token that parses back to the same person, even for names with brackets", () => {
    const token = mentionToken({ userId: "usr_x", name: "Dana [IT] Smith" });
    expect(token).toBe("@[Dana  IT  Smith](usr_x)");
    expect(parseMentions(`hi ${token}`)).toEqual([{ userId: "usr_x", name: "Dana  IT  Smith" }]);
  });

  it("shows tokens as @Name in plain text", () => {
    expect(mentionsToPlainText("Thanks @[Ana Ortiz](usr_a)!")).toBe("Thanks @Ana Ortiz!");
  });

  it("cuts a message into text and mentions for highlighting", () => {
    expect(splitMentions("Hi @[Ana](usr_a), look")).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "mention", name: "Ana", userId: "usr_a" },
      { kind: "text", text: ", look" },
    ]);
    expect(splitMentions("no mentions")).toEqual([{ kind: "text", text: "no mentions" }]);
  });
});
