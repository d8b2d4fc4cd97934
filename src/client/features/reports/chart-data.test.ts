import { describe, expect, it } from "vitest";
import { chartCsv, formatDuration, isEmptyChart } from "./chart-data.ts";
import { readRange } from "./report-range.ts";

describe("chartCsv", () => {
  it("writes a UTF-8 BOM, one row per label, raw figures, and escapes cells a spreadsheet would run", () => {
    const csv = chartCsv({
      category: "Department",
      labels: ['=HYPERLINK("http://x")', "IT, floor 2"],
      kind: "bar",
      series: [{ label: "Tickets", values: [3, 1200], color: "#000" }],
    });
    expect(csv).toBe('\uFEFFDepartment,Tickets\r\n"\'=HYPERLINK(""http://x"")",3\r\n"IT, floor 2",1200\r\n');
  });
});

describe("chart helpers", () => {
  it("calls a chart empty when every figure is zero", () => {
    const data = {
      category: "Day",
      labels: ["a"],
      kind: "line" as const,
      series: [{ label: "x", values: [0], color: "" }],
    };
    expect(isEmptyChart(data)).toBe(true);
    expect(isEmptyChart({ ...data, series: [{ label: "x", values: [1], color: "" }] })).toBe(false);
  });

  it("reads durations as people say them", () => {
    expect([59, 5400, 3 * 3600, 86_400, 155_520, 3599.9 * 60].map(formatDuration)).toEqual([
      "1 min",
      "1 h 30 min",
      "3 h",
      "1 d",
      "1 d 19 h",
      "2 d 12 h",
    ]);
  });
});

describe("readRange", () => {
  const today = new Date(2026, 2, 30, 12);
  it("reads a preset, a custom range and the grouping from the address; falls back to 30 days", () => {
    expect(readRange(new URLSearchParams("range=7"), today)).toEqual({
      choice: "7",
      query: { from: "2026-03-24", to: "2026-03-30", group: "day" },
    });
    expect(
      readRange(new URLSearchParams("range=custom&from=2026-01-01&to=2026-01-31&group=week"), today),
    ).toEqual({
      choice: "custom",
      query: { from: "2026-01-01", to: "2026-01-31", group: "week" },
    });
    for (const bad of [
      "",
      "range=custom&from=2026-02-01&to=2026-01-01",
      "range=custom&from=2024-01-01&to=2026-01-01",
    ])
      expect(readRange(new URLSearchParams(bad), today).query).toEqual({
        from: "2026-03-01",
        to: "2026-03-30",
        group: "day",
      });
  });
});
