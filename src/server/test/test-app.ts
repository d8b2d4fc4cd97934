import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "#server/app.ts";
import type { AppDeps } from "#server/app-deps.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { assertNoSecretsLeaked, scanResponsesForSecrets } from "./response-secrets.ts";
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from "./test-database.ts";

export const testBaseURL = "http://localhost:3000";
export const testAdminKey = "test-admin-key-0123456789";
const testAuthSecret = "test-secret-test-secret-test-secret-0123";

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real app on a test database of its own. Sign-in limits are generous unless a test sets them; the
 * scheduled jobs wait for app.jobs.tick(). Every response body is scanned for secrets (response-secrets.ts):
 * close() throws if one leaked. `beforeReady` may add routes or hooks (for the scanner's own test).
 */
export async function createTestApp(
  overrides: Partial<AppDeps> = {},
  databaseOptions: TestDatabaseOptions = {},
  { beforeReady }: { beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(databaseOptions);
  const app = await buildApp({
    database,
    baseURL: testBaseURL,
    authSecret: testAuthSecret,
    clientDir: null,
    credentialRateLimit: { window: 60, max: 10_000 },
    accountRateLimit: { window: 60, max: 10_000 },
    signUpRateLimit: { window: 60, max: 10_000 },
    // Scheduled jobs run when a test calls app.jobs.tick(), not behind its back.
    jobs: { firstTickMs: 60 * 60_000, tickMs: 60 * 60_000 },
    // The factories write tickets in SQL, behind the app's back: tests that cache counts say so.
    ticketReadCacheTtlMs: 0,
    adminSignUpKey: testAdminKey,
    mailer: createMailer({
      outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-outbox-")), "outbox"),
      from: "Helpdesk <helpdesk@test.local>",
      log: () => {},
    }),
    ...overrides,
  });
  const scanner = scanResponsesForSecrets(app, [
    overrides.authSecret ?? testAuthSecret,
    overrides.adminSignUpKey ?? testAdminKey,
  ]);
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.destroy();
      assertNoSecretsLeaked(scanner);
    },
  };
}

/** Injects a request as a signed-in person (their session cookie) or anonymously. */
export function request(
  app: FastifyInstance,
  options: InjectOptions & { cookie?: string | null },
): Promise<LightMyRequestResponse> {
  const { cookie, headers, ...rest } = options;
  return app.inject({
    ...rest,
    headers: { origin: testBaseURL, ...(cookie ? { cookie } : {}), ...headers },
  });
}
