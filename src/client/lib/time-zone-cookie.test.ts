import { afterEach, describe, expect, it, vi } from "vitest";
import { timeZoneOf } from "#shared/page-rendering/server-rendered.ts";
import { rememberTimeZoneWhenIdle } from "./time-zone-cookie.ts";

describe("the time zone cookie", () => {
  afterEach(() => vi.useRealTimers());

  it("holds this browser's zone once the page is idle, in the form the server reads", () => {
    vi.useFakeTimers();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the code under test writes it
    document.cookie = "helpdesk-tz=; max-age=0; path=/";
    rememberTimeZoneWhenIdle();
    expect(document.cookie).not.toContain("helpdesk-tz=");
    vi.runAllTimers();
    expect(timeZoneOf(document.cookie)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
