import { describe, expect, it } from "vitest";
import { z } from "zod";
import { storableText, unstorableTextReason } from "./storable-text.ts";

describe("storableText", () => {
  const title = storableText(z.string().trim(), "Title");

  it.each(["\u0000", "a\u0000b", "\u0001", "\u001b[31m", "\u007f", "a\u000bb", "a\u000cb"])(
    "refuses the control character in %j, naming the field",
    (text) => {
      expect(title.safeParse(text).error?.issues[0]?.message).toBe(
        "Title must not contain control characters",
      );
    },
  );

  it.each(["\ud800", "x\udfff", "\udc00\ud800"])("refuses the lone surrogate in %j", (text) => {
    expect(title.safeParse(text).error?.issues[0]?.message).toBe("Title must be valid Unicode text");
  });

  it("keeps tabs, line breaks, accents, other scripts and emoji", () => {
    for (const text of ["line 1\nline 2\r\n\tindented", "Zoë Ålesund", "東京 مرحبا", "👩‍💻 🏳️‍🌈"]) {
      expect(unstorableTextReason(text, "Title")).toBeNull();
      expect(title.safeParse(text).success).toBe(true);
    }
  });
});
