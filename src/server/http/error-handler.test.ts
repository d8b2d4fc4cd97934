import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "#server/db/connection-errors.ts";
import { ticketChangedMeanwhile } from "#server/errors.ts";
import { registerErrorHandler } from "./error-handler.ts";

// How the one error handler answers what PostgreSQL says when writers get in each other's way (decision
// 053). The errors are shaped as the drivers give them: pg's (or PGlite's) error with its SQLSTATE and
// context line, wrapped by drizzle as the cause of its own.

const failedQuery = (code: string, message: string, where?: string) =>
  new Error("Failed query: update tickets set updated_at = $1 where id = $2", {
    cause: Object.assign(new Error(message), { code, where }),
  });

const thrown: Record<string, () => Error> = {
  deadlock: () => failedQuery("40P01", "deadlock detected"),
  serialization: () => failedQuery("40001", "could not serialize access due to concurrent update"),
  lockTimeout: () =>
    failedQuery(
      "55P03",
      "canceling statement due to lock timeout",
      'while locking tuple (0,7) in relation "tickets"',
    ),
  statementTimeoutWaitingForRow: () =>
    failedQuery(
      "57014",
      "canceling statement due to statement timeout",
      'while updating tuple (0,7) in relation "tickets"',
    ),
  statementTimeoutWaitingForForeignKey: () =>
    failedQuery(
      "57014",
      "canceling statement due to statement timeout",
      'while locking tuple (0,7) in relation "tickets"\nSQL statement "SELECT 1 FROM ONLY "public"."tickets" x WHERE "id" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x"',
    ),
  slowStatement: () => failedQuery("57014", "canceling statement due to statement timeout"),
  ticketWrite: () => ticketChangedMeanwhile(failedQuery("40P01", "deadlock detected")),
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  registerErrorHandler(app, { bodyLimit: 64 * 1024 });
  app.get<{ Params: { kind: string } }>("/fail/:kind", async (request) => {
    throw thrown[request.params.kind]!();
  });
  await app.ready();
});
afterAll(() => app.close());

const answerTo = async (kind: string) => {
  const response = await app.inject({ method: "GET", url: `/fail/${kind}` });
  return { status: response.statusCode, body: response.json(), retryAfter: response.headers["retry-after"] };
};

const sameThing = {
  code: "conflict",
  message: "Someone else was changing the same thing at that moment. Please try again.",
};

describe("the error handler, when writers get in each other's way", () => {
  it.each([
    ["a deadlock that came back on every attempt", "deadlock"],
    ["a serialization failure", "serialization"],
    ["a wait for a row longer than lock_timeout (55P03)", "lockTimeout"],
    ["a statement_timeout that struck while waiting for a row", "statementTimeoutWaitingForRow"],
    ["a statement_timeout that struck in a foreign key's row lock", "statementTimeoutWaitingForForeignKey"],
  ])("answers %s with 409 and what to do, never 500 or 503", async (_name, kind) => {
    expect(await answerTo(kind)).toEqual({ status: 409, body: sameThing, retryAfter: undefined });
  });

  it("answers a ticket write that met another writer with the ticket's own message", async () => {
    expect(await answerTo("ticketWrite")).toEqual({
      status: 409,
      body: {
        code: "conflict",
        message: "Someone else changed this ticket at the same moment. Please try again.",
      },
      retryAfter: undefined,
    });
  });

  it("still answers a statement that was merely slow as a database not answering (503)", async () => {
    expect(await answerTo("slowStatement")).toEqual({
      status: 503,
      body: { code: "unavailable", message: "The database is not answering. Please try again in a moment." },
      retryAfter: "1",
    });
  });

  it("never counts a wait for a row as an unavailable database", () => {
    expect(isDatabaseUnavailable(thrown.lockTimeout!())).toBe(false);
    expect(isDatabaseUnavailable(thrown.statementTimeoutWaitingForRow!())).toBe(false);
    expect(isDatabaseUnavailable(thrown.slowStatement!())).toBe(true);
  });
});
