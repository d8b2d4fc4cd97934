import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.ts";

describe("loadEnv", () => {
  it("runs with no configuration at all on the embedded database", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: "./data", BASE_URL: "http://localhost:3000" });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("derives BASE_URL from PORT and drops a trailing slash", () => {
    expect(loadEnv({ PORT: "8080" }).BASE_URL).toBe("http://localhost:8080");
    expect(loadEnv({ BASE_URL: "https://help.example.org/" }).BASE_URL).toBe("https://help.example.org");
  });

  it("keeps read notifications 90 days and tries a mail 8 times unless told otherwise", () => {
    expect(loadEnv({})).toMatchObject({ NOTIFICATION_RETENTION_DAYS: 90, MAIL_RETRY_MAX: 8 });
    expect(loadEnv({ NOTIFICATION_RETENTION_DAYS: "0", MAIL_RETRY_MAX: "3" })).toMatchObject({
      NOTIFICATION_RETENTION_DAYS: 0,
      MAIL_RETRY_MAX: 3,
    });
    expect(() => loadEnv({ NOTIFICATION_RETENTION_DAYS: "-1" })).toThrow(/NOTIFICATION_RETENTION_DAYS/);
    expect(() => loadEnv({ MAIL_RETRY_MAX: "0" })).toThrow(/MAIL_RETRY_MAX/);
  });

  it("fails fast, naming every bad variable", () => {
    expect(() => loadEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT.*DATABASE_URL/s);
  });
});
