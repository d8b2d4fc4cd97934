import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type AppDeps, buildApp } from "../app.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export const testBaseURL = "http://localhost:3000";

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a test database of its own. Sign-in limits are generous unless a test sets them. */
export async function createTestApp(overrides: Partial<AppDeps> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp({
    database,
    baseURL: testBaseURL,
    authSecret: "test-secret-test-secret-test-secret-0123",
    clientDir: null,
    credentialRateLimit: { window: 60, max: 10_000 },
    ...overrides,
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.destroy();
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
