import { compileMessage as linguiCompile } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
import german from "#client/locales/de/messages.po?raw";
import english from "#client/locales/en/messages.po?raw";
import { compileMessage } from "./compile-message.ts";

/** Every msgid and msgstr of a .po file (single-line and wrapped strings). */
function textsOf(po: string): string[] {
  const texts: string[] = [];
  const entry = /^(?:msgid|msgstr) ((?:"(?:[^"\\]|\\.)*"\n?)+)/gm;
  for (const match of po.matchAll(entry)) {
    const parts = match[1]!
      .trim()
      .split("\n")
      .map((part) => JSON.parse(part) as string);
    const text = parts.join("");
    if (text) texts.push(text);
  }
  return texts;
}

/** A lone string and a one-string array mean the same to Lingui. */
const normal = (compiled: unknown) =>
  Array.isArray(compiled) && compiled.length === 1 && typeof compiled[0] === "string"
    ? compiled[0]
    : compiled;

describe("compileMessage", () => {
  it.each([
    "Sign In",
    "Welcome, {0}. Tell us how you will use the helpdesk.",
    "{hours, plural, one {# hour ago} other {# hours ago}}",
    "{n, plural, =0 {none} one {one file} other {# files}}",
    "{role, select, admin {Admin} other {Someone}}",
    "Don't have an account? <0>Sign up</0>",
    "It''s '{literal}' braces",
    "{count, plural, one {'#' and # item} other {# items}}",
    "{n, plural, offset:1 one {a} other {# b}}",
    "{n, number} of {total}",
  ])("compiles %j as Lingui does", (message) => {
    expect(normal(compileMessage(message))).toEqual(normal(linguiCompile(message)));
  });

  it("compiles every text of both catalogues as Lingui does", () => {
    const texts = [...textsOf(english), ...textsOf(german)];
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) expect(normal(compileMessage(text)), text).toEqual(normal(linguiCompile(text)));
  });
});
