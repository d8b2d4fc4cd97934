import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  isDatabaseUnavailable,
  isDiskFull,
  isLockWait,
  isTransientConflict,
} from "#server/db/connection-errors.ts";
import {
  AppError,
  changedMeanwhile,
  databaseRetryAfterSeconds,
  databaseUnavailable,
  diskFull,
  statusByCode,
} from "#server/errors.ts";
import { describeIssues } from "#shared/errors.ts";
import { scimContentType, scimUrn } from "#shared/scim/scim.schemas.ts";

/** The one place where failures become HTTP answers: { code, message, details? } with one status per code. */
export function registerErrorHandler(
  app: FastifyInstance,
  {
    bodyLimit,
    isDatabaseMarkedUnavailable = () => false,
  }: {
    bodyLimit: number;
    /** PostgreSQL's health gate is closed: it logged that once, so the requests it refuses log nothing. */
    isDatabaseMarkedUnavailable?: () => boolean;
  },
) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const retryAfter = (error.details as { retryAfter?: number } | undefined)?.retryAfter;
      if (error.code === "rate_limited" && retryAfter) reply.header("retry-after", String(retryAfter));
      if (error.code === "unavailable") reply.header("retry-after", String(databaseRetryAfterSeconds));
      // A conflict between writers (decision 053): answered, and worth a line for whoever looks at locks.
      if (error.cause !== undefined) request.log.warn({ err: error.cause }, error.message);
      return reply.status(statusByCode[error.code]).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split("/").filter(Boolean),
        message: v.message ?? "is not valid",
      }));
      const where = error.validationContext === "body" ? "" : `${error.validationContext} `;
      return reply.status(400).send({
        code: "validation_failed",
        message: `${where}${describeIssues(issues)}`.trim(),
        details: issues,
      });
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.status(413).send({
        code: "payload_too_large",
        message: `The request body is too large (the limit is ${Math.round(bodyLimit / 1024)} KB).`,
      });
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.status(415).send({ code: "validation_failed", message: "Send the request body as JSON." });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const message =
        error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" || error.code === "FST_ERR_CTP_INVALID_JSON_BODY"
          ? "The request body is not valid JSON."
          : error.message;
      return reply.status(error.statusCode).send({ code: "validation_failed", message });
    }
    // Checked before unavailability: a statement_timeout that struck while waiting for a row is a
    // conflict between writers, not a database that does not answer (decision 053).
    if (isTransientConflict(error) || isLockWait(error)) {
      request.log.warn({ err: error }, "conflicting writes");
      return reply.status(409).send(changedMeanwhile().toBody());
    }
    if (isDatabaseUnavailable(error)) {
      if (isDatabaseMarkedUnavailable()) request.log.debug({ err: error }, "database unavailable");
      else request.log.warn({ err: error }, "database unavailable");
      reply.header("retry-after", String(databaseRetryAfterSeconds));
      return reply.status(503).send(databaseUnavailable().toBody());
    }
    if (isDiskFull(error)) {
      // The operator must act: logged as an error, answered with what the person needs to know.
      request.log.error({ err: error }, "the disk is full");
      return reply.status(507).send(diskFull().toBody());
    }
    request.log.error({ err: error }, "unhandled error");
    return reply
      .status(500)
      .send({ code: "internal", message: "Something went wrong on our side. Please try again." });
  });
}

/**
 * Fastify's router refuses some paths before any route or error handler runs: a malformed %-escape
 * (FST_ERR_BAD_URL) and a path parameter longer than maxParamLength (FST_ERR_MAX_PARAM_LENGTH). Left to
 * Fastify, they are answered in its own shape, echoing the path; here they get the shared one.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
  const status = tooLong ? 414 : 400;
  const message = tooLong ? "A part of the address is too long." : "The address is not valid.";
  // The /api hooks that set it never ran for this request.
  reply.header("cache-control", "no-store");
  // SCIM's routes answer in SCIM's error shape, which identity providers read (decision 081).
  if (request.url.startsWith("/scim/")) {
    return reply
      .status(status)
      .header("content-type", `${scimContentType}; charset=utf-8`)
      .send({ schemas: [scimUrn.error], status: String(status), detail: message });
  }
  return reply.status(status).send({ code: "validation_failed", message });
}
