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

  it("fails fast, naming every bad variable", () => {
    expect(() => loadEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT.*DATABASE_URL/s);
  });

  it.each([
    [undefined, false],
    ["false", false],
    ["true", 1],
    ["2", 2],
    ["0", false],
    ["10.0.0.1, 10.1.0.0/16 ,::1", ["10.0.0.1", "10.1.0.0/16", "::1"]],
    ["loopback,uniquelocal", ["loopback", "uniquelocal"]],
  ])("reads TRUST_PROXY=%s as %j (true means one proxy hop, never every hop)", (value, trust) => {
    expect(loadEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(trust);
  });

  it.each(["yes", "10.0.0.1,proxy.internal", "10.0.0.0/33", "-1"])("refuses TRUST_PROXY=%s", (value) => {
    expect(() => loadEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be false, true, a number/);
  });

  it("reads the sign-in limits with office-friendly defaults", () => {
    expect(loadEnv({})).toMatchObject({
      AUTH_RATE_LIMIT_MAX: 10,
      AUTH_RATE_LIMIT_WINDOW: 60,
      AUTH_ACCOUNT_LIMIT_MAX: 20,
      AUTH_ACCOUNT_LIMIT_WINDOW: 900,
      AUTH_SIGNUP_LIMIT_MAX: 30,
    });
  });
});
