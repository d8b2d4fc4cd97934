import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDotEnvFile, loadEnv } from "./env.ts";

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

  it("reads the PostgreSQL pool's timeouts and size, leaving unset ones to the pool's defaults", () => {
    const env = loadEnv({
      DATABASE_STATEMENT_TIMEOUT_MS: "2000",
      DATABASE_POOL_MAX: "4",
      DATABASE_PING_TIMEOUT_MS: "900",
    });
    expect(env).toMatchObject({
      DATABASE_STATEMENT_TIMEOUT_MS: 2000,
      DATABASE_POOL_MAX: 4,
      DATABASE_PING_TIMEOUT_MS: 900,
    });
    expect(env.DATABASE_CONNECT_TIMEOUT_MS).toBeUndefined();
    expect(env.DATABASE_STARTUP_TIMEOUT_MS).toBe(0);
    expect(() => loadEnv({ DATABASE_CONNECT_TIMEOUT_MS: "5s", DATABASE_POOL_MAX: "0" })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS.*DATABASE_POOL_MAX/s,
    );
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

  it("leaves e-mail to ticket off unless INBOUND_SMTP_PORT is set, then receives for the configured address", () => {
    expect(loadEnv({}).inboundMail).toBeUndefined();
    expect(
      loadEnv({
        INBOUND_SMTP_PORT: "2525",
        INBOUND_EMAIL_ADDRESS: "Help@Example.org",
        MAIL_FROM: "IT <it@example.org>",
      }).inboundMail,
    ).toEqual({
      host: "127.0.0.1",
      port: 2525,
      address: "help@example.org",
      maxMessageBytes: 15 * 1024 * 1024,
      unknownSenders: "bounce",
      ownAddresses: ["it@example.org"],
    });
    // Without INBOUND_EMAIL_ADDRESS, the address mail leaves from (MAIL_FROM) receives too.
    expect(
      loadEnv({ INBOUND_SMTP_PORT: "2525", MAIL_FROM: "IT <it@example.org>" }).inboundMail?.address,
    ).toBe("it@example.org");
    expect(() => loadEnv({ INBOUND_SMTP_PORT: "2525" })).toThrow(/INBOUND_EMAIL_ADDRESS/);
    expect(() => loadEnv({ INBOUND_UNKNOWN_SENDERS: "accept" })).toThrow(/bounce or create-account/);
    expect(() => loadEnv({ INBOUND_MAX_MESSAGE_BYTES: "10" })).toThrow(/INBOUND_MAX_MESSAGE_BYTES/);
  });

  it("allows attachments of 10 MB unless ATTACHMENT_MAX_BYTES says otherwise", () => {
    expect(loadEnv({}).ATTACHMENT_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(loadEnv({ ATTACHMENT_MAX_BYTES: "52428800" }).ATTACHMENT_MAX_BYTES).toBe(52_428_800);
    expect(() => loadEnv({ ATTACHMENT_MAX_BYTES: "10" })).toThrow(
      /ATTACHMENT_MAX_BYTES must be at least 1024/,
    );
    expect(() => loadEnv({ ATTACHMENT_MAX_BYTES: "10MB" })).toThrow(/ATTACHMENT_MAX_BYTES/);
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

  it("links single sign-on to an existing account with a verified e-mail unless SSO_ACCOUNT_LINKING=false", () => {
    expect(loadEnv({}).SSO_ACCOUNT_LINKING).toBe(true);
    expect(loadEnv({ SSO_ACCOUNT_LINKING: "false" }).SSO_ACCOUNT_LINKING).toBe(false);
    expect(() => loadEnv({ SSO_ACCOUNT_LINKING: "off" })).toThrow(
      /SSO_ACCOUNT_LINKING must be true or false/,
    );
  });
});

describe("loadDotEnvFile", () => {
  it("asks the OIDC provider for the extra scopes OIDC_SCOPES names, none unless told", () => {
    const oidc = {
      OIDC_ISSUER: "https://id.example.org",
      OIDC_CLIENT_ID: "helpdesk",
      OIDC_CLIENT_SECRET: "s",
    };
    expect(loadEnv(oidc).oidc?.extraScopes).toEqual([]);
    expect(loadEnv({ ...oidc, OIDC_SCOPES: "groups, offline_access" }).oidc?.extraScopes).toEqual([
      "groups",
      "offline_access",
    ]);
    expect(() => loadEnv({ ...oidc, OIDC_SCOPES: 'groups "roles"' })).toThrow(/OIDC_SCOPES/);
  });

  it("reads a .env file into the environment, where real variables win", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-env-")), ".env");
    writeFileSync(file, "HELPDESK_TEST_FROM_FILE=file\nHELPDESK_TEST_REAL=file\n");
    process.env.HELPDESK_TEST_REAL = "real";
    try {
      expect(loadDotEnvFile(file)).toBe(true);
      expect(process.env.HELPDESK_TEST_FROM_FILE).toBe("file");
      expect(process.env.HELPDESK_TEST_REAL).toBe("real");
    } finally {
      delete process.env.HELPDESK_TEST_FROM_FILE;
      delete process.env.HELPDESK_TEST_REAL;
    }
  });

  it("does nothing when there is no .env file", () => {
    expect(loadDotEnvFile(path.join(os.tmpdir(), "no-such-dir-helpdesk", ".env"))).toBe(false);
  });
});
