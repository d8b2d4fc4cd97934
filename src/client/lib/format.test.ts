import { afterEach, describe, expect, it } from "vitest";
import { formatDateTime, formatFileSize, formatRelativeTime } from "./format.ts";
import { activateLocale } from "./i18n.ts";

describe("formatRelativeTime", () => {
  const now = Date.parse("2025-11-20T10:00:00.000Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("says Just now under a minute and for a clock slightly behind the server", () => {
    expect(formatRelativeTime(ago(0), now)).toBe("Just now");
    expect(formatRelativeTime(ago(59_000), now)).toBe("Just now");
    expect(formatRelativeTime(ago(-5_000), now)).toBe("Just now");
  });

  it("counts minutes, hours and days", () => {
    expect(formatRelativeTime(ago(5 * 60_000), now)).toBe("5 min ago");
    expect(formatRelativeTime(ago(60 * 60_000), now)).toBe("1 hour ago");
    expect(formatRelativeTime(ago(3 * 60 * 60_000), now)).toBe("3 hours ago");
    expect(formatRelativeTime(ago(2 * 24 * 60 * 60_000), now)).toBe("2 days ago");
  });

  it("shows the date after a week", () => {
    const iso = ago(8 * 24 * 60 * 60_000);
    expect(formatRelativeTime(iso, now)).toBe(formatDateTime(iso));
  });
});

describe("formatFileSize", () => {
  afterEach(async () => {
    await activateLocale("en");
  });

  it("reads bytes, KB and MB as the shared formatter does, in English", () => {
    expect(formatFileSize(1)).toBe("1 byte");
    expect(formatFileSize(900)).toBe("900 bytes");
    expect(formatFileSize(12 * 1024)).toBe("12 KB");
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe("1.5 MB");
  });

  it("uses the German decimal comma and words", async () => {
    await activateLocale("de");
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe("1,5 MB");
    expect(formatFileSize(900)).toBe("900 Bytes");
  });
});
