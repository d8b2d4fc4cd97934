// Socket failures: nothing listens, the connection broke, or the host cannot be reached.
const socketErrorCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLSTATEs of a server that is there but cannot serve now: class 08 (connection exception), shutting
// down or starting up (57P01–57P03), out of connections (53300), statement_timeout (57014) unless the
// statement was waiting for a row lock (waitedForRow).
const isUnavailableSqlState = (code: string) =>
  code.startsWith("08") || ["57P01", "57P02", "57P03", "53300", "57014"].includes(code);

/**
 * PostgreSQL's context line ("where") of a statement cancelled while it waited for a row another
 * transaction holds: "while locking tuple (0,1) in relation "tickets"", "while updating tuple …",
 * "while inserting index tuple …", possibly under the SQL of a foreign key check.
 */
const rowWaitContext = /\bwhile (?:locking|updating|deleting|inserting|checking|rechecking)\b[^\n]*\btuple\b/;

/**
 * A statement_timeout (57014) that struck while the statement waited for another transaction's row: a
 * conflict between writers, not a database that does not answer. (A waiter queued behind the first
 * one carries no such line; lock_timeout, set below the statement timeout for ticket writes, answers
 * those first: events/transaction.ts.)
 */
const waitedForRow = (code: string, where: unknown) =>
  code === "57014" && typeof where === "string" && rowWaitContext.test(where);

/** What the pool throws while the health gate is closed (health-gate.ts), followed by the ping's failure. */
export const databaseMarkedUnavailable = "PostgreSQL did not answer the health check";

// pg and pg-pool report timeouts and dead connections as plain errors with these messages.
const driverMessages = [
  databaseMarkedUnavailable,
  "Query read timeout",
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
];

/**
 * True when an error (or any error it wraps: drizzle wraps the driver's) means the database is unreachable
 * or not answering, as opposed to a query that is wrong.
 */
export const isDatabaseUnavailable = (error: unknown) => unavailabilityOf(error) !== undefined;

/** The outermost error in the chain that says the database is unavailable, in the driver's own words. */
export function unavailabilityOf(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const { code, message, cause, errors, where } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    where?: unknown;
  };
  const text = typeof message === "string" && message ? message : String(code);
  if (typeof code === "string" && waitedForRow(code, where)) return undefined;
  if (typeof code === "string" && (socketErrorCodes.has(code) || isUnavailableSqlState(code))) return text;
  if (typeof message === "string" && driverMessages.some((start) => message.startsWith(start))) return text;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  for (const inner of Array.isArray(errors) ? errors : []) {
    const reason = unavailabilityOf(inner, depth + 1);
    if (reason) return reason;
  }
  return unavailabilityOf(cause, depth + 1);
}

/** True when the error, or one it wraps (Drizzle wraps the driver's: pg, PGlite), carries one of these codes. */
export function hasErrorCode(error: unknown, codes: readonly string[]): boolean {
  for (
    let e: unknown = error, depth = 0;
    e instanceof Object && depth < 6;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code } = e as { code?: unknown };
    if (typeof code === "string" && codes.includes(code)) return true;
  }
  return false;
}

/**
 * PostgreSQL aborted the transaction because of another one, not because of anything in it: a deadlock
 * (40P01) or a serialization failure (40001). Run again, it succeeds.
 */
export const isTransientConflict = (error: unknown) => hasErrorCode(error, ["40P01", "40001"]);

/**
 * The statement gave up waiting for a row another transaction holds: lock_timeout (55P03), or a
 * statement_timeout that struck during such a wait. Another writer held it too long; nothing is wrong
 * with the database.
 */
export function isLockWait(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e instanceof Object && depth < 6;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, where } = e as { code?: unknown; where?: unknown };
    if (code === "55P03" || (typeof code === "string" && waitedForRow(code, where))) return true;
  }
  return false;
}

/** PostgreSQL's unique_violation (23505). */
export const isUniqueViolation = (error: unknown) => hasErrorCode(error, ["23505"]);

/** The disk under the database is full: PostgreSQL's and PGlite's disk_full (53100), or Node's ENOSPC. */
export const isDiskFull = (error: unknown) => hasErrorCode(error, ["53100", "ENOSPC"]);
