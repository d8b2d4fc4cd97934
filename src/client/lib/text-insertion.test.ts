import { describe, expect, it } from "vitest";
import { insertAt } from "./text-insertion.ts";

describe("insertAt", () => {
  it("inserts at the cursor and puts the cursor after the inserted text", () => {
    expect(insertAt("Hello world", "big ", 6)).toEqual({ value: "Hello big world", caret: 10 });
  });

  it("replaces the selection", () => {
    expect(insertAt("Hello world", "there", 6, 11)).toEqual({ value: "Hello there", caret: 11 });
  });

  it("appends when the cursor is past the end, and fills an empty box", () => {
    expect(insertAt("Hi", "!", 99)).toEqual({ value: "Hi!", caret: 3 });
    expect(insertAt("", "Text", 0)).toEqual({ value: "Text", caret: 4 });
  });
});
