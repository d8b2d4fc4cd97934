import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv.ts";

describe("csvCell", () => {
  it("leaves plain text as it is", () => {
    expect(csvCell("Printer jams")).toBe("Printer jams");
    expect(csvCell("TKT0ABCDEF12345678")).toBe("TKT0ABCDEF12345678");
    expect(csvCell("Café ☕ 東京")).toBe("Café ☕ 東京");
  });

  it("writes an empty cell for a missing value", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it("quotes a cell with a comma, a quote or a line break, doubling the quotes", () => {
    expect(csvCell("Hardware, Network")).toBe('"Hardware, Network"');
    expect(csvCell('The "big" printer')).toBe('"The ""big"" printer"');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell("line one\r\nline two")).toBe('"line one\r\nline two"');
  });

  it.each([
    ['=HYPERLINK("http://evil")', '\'=HYPERLINK("http://evil")'],
    ["+1+2", "'+1+2"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ["@SUM(1,2)", "'@SUM(1,2)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
  ])("escapes a cell a spreadsheet would run as a formula: %j", (input, escaped) => {
    const cell = csvCell(input);
    // Quoted when it also holds a separator, a quote or a line break; the apostrophe is inside the quotes.
    expect(cell === escaped || cell === `"${escaped.replaceAll('"', '""')}"`).toBe(true);
    expect(cell.replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("escapes a leading minus even on a plain negative number (OWASP: one rule, no exceptions)", () => {
    expect(csvCell("-1")).toBe("'-1");
  });

  it("escapes only a leading formula character, not one further in", () => {
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("user@example.test")).toBe("user@example.test");
    expect(csvCell(" =1+1")).toBe(" =1+1");
  });
});

describe("csvRow", () => {
  it("joins cells with commas and ends with CRLF", () => {
    expect(csvRow(["a", "b, c", null, "=1"])).toBe('a,"b, c",,\'=1\r\n');
  });
});
