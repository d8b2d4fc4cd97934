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
});
