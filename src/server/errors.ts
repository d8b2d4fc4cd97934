import type { ApiErrorBody, ErrorCode } from "#shared/errors.ts";
import { isLockWait, isTransientConflict } from "./db/connection-errors.ts";

/** One code → one HTTP status, for every failure the API returns. */
export const statusByCode: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rule_violation: 422,
  // Only for a request that sent If-Match (decision 078): the thing changed since the caller read it.
  precondition_failed: 412,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  // RFC 4918's "unable to store the representation needed to complete the request": the server's state,
  // not the request's fault (so not 4xx), and not something that passes in a moment (so not 503).
  insufficient_storage: 507,
  internal: 500,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** The failure this answer stands for, when it came from below (the error handler logs it). */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "AppError";
  }

  toBody(): ApiErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export const validationFailed = (message: string, details?: unknown) =>
  new AppError("validation_failed", message, details);
export const unauthenticated = (message = "Please sign in first") => new AppError("unauthenticated", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const notFound = (what: string, id?: string) =>
  new AppError("not_found", id ? `${what} ${id} not found` : `${what} not found`);
export const conflict = (message: string) => new AppError("conflict", message);
export const ruleViolation = (message: string) => new AppError("rule_violation", message);
/** The caller's If-Match names a version that is no longer the current one (decision 078). */
export const preconditionFailed = (message: string) => new AppError("precondition_failed", message);
/**
 * Another writer of the same ticket got in the way: a deadlock that came back on every attempt, or a
 * wait for the ticket's row longer than the lock timeout (decision 053). Nothing was saved; the same
 * request again is likely to work.
 */
export const ticketChangedMeanwhile = (cause?: unknown) =>
  new AppError(
    "conflict",
    "Someone else changed this ticket at the same moment. Please try again.",
    undefined,
    { cause },
  );
/**
 * A 409 that stands for a conflict between writers (ticketChangedMeanwhile), not for the ticket's state:
 * the same request again, a moment later, is likely to work.
 */
export const isChangedMeanwhile = (error: unknown) =>
  error instanceof AppError && (isTransientConflict(error.cause) || isLockWait(error.cause));
/** The same for any other write (the error handler's answer to a deadlock or a lock wait it meets). */
export const changedMeanwhile = () =>
  new AppError("conflict", "Someone else was changing the same thing at that moment. Please try again.");
/**
 * Retry-After on a 503 for an unavailable database: the health gate tries again every half second, so a
 * second is enough to find it back, and short enough not to keep anyone waiting once it is.
 */
export const databaseRetryAfterSeconds = 1;
/** The database is unreachable or not answering in time: worth retrying, unlike a 500. */
export const databaseUnavailable = () =>
  new AppError("unavailable", "The database is not answering. Please try again in a moment.");
/** The disk that holds the database is full (or below its reserve): reading works, saving does not. */
export const diskFull = () =>
  new AppError(
    "insufficient_storage",
    "The server's disk is full: nothing new can be saved until an administrator frees space. What is already saved is safe and can still be read.",
  );
/** Every rate limit answers alike; the error handler turns retryAfter into a Retry-After header. */
export const tooManyAttempts = (retryAfter: number) =>
  new AppError("rate_limited", `Too many attempts. Try again in ${retryAfter} seconds.`, { retryAfter });
