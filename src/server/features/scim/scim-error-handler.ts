import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  isDatabaseUnavailable,
  isDiskFull,
  isLockWait,
  isTransientConflict,
} from "#server/db/connection-errors.ts";
import { AppError, databaseRetryAfterSeconds, statusByCode } from "#server/errors.ts";
import { describeIssues } from "#shared/errors.ts";
import { scimContentType } from "#shared/scim/scim.schemas.ts";
import { ScimError } from "./scim-error.ts";

/**
 * Every answer of /scim/v2 in SCIM's content type, never stored by a cache, and every failure in SCIM's
 * error shape (RFC 7644 §3.12) rather than the API's: identity providers read `status`, `scimType` and
 * `detail` and show the detail to their administrator.
 */
export function registerScimErrors(app: FastifyInstance) {
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    if (type.startsWith("application/json"))
      reply.header("content-type", `${scimContentType}; charset=utf-8`);
    reply.header("cache-control", "no-store");
    return payload;
  });
  app.setErrorHandler((error: FastifyError | AppError | ScimError, request, reply) => {
    const answer = (scim: ScimError) => {
      if (scim.status === 401) reply.header("www-authenticate", 'Bearer realm="scim"');
      return reply.status(scim.status).send(scim.toBody());
    };
    if (error instanceof ScimError) return answer(error);
    if (error instanceof AppError) {
      const retryAfter = (error.details as { retryAfter?: number } | undefined)?.retryAfter;
      if (error.code === "rate_limited" && retryAfter) reply.header("retry-after", String(retryAfter));
      if (error.code === "unavailable") reply.header("retry-after", String(databaseRetryAfterSeconds));
      const scimType = error.code === "validation_failed" ? "invalidValue" : undefined;
      return answer(new ScimError(statusByCode[error.code], error.message, scimType));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split("/").filter(Boolean),
        message: v.message ?? "is not valid",
      }));
      const where = error.validationContext === "body" ? "" : `${error.validationContext} `;
      return answer(new ScimError(400, `${where}${describeIssues(issues)}`.trim(), "invalidValue"));
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return answer(new ScimError(413, "The request body is too large."));
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return answer(new ScimError(415, `Send the request body as ${scimContentType} or application/json.`));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const isJson =
        error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" || error.code === "FST_ERR_CTP_INVALID_JSON_BODY";
      return answer(
        new ScimError(
          error.statusCode,
          isJson ? "The request body is not valid JSON." : error.message,
          isJson ? "invalidSyntax" : undefined,
        ),
      );
    }
    if (isTransientConflict(error) || isLockWait(error)) {
      return answer(
        new ScimError(409, "Someone else was changing the same person at that moment. Please try again."),
      );
    }
    if (isDatabaseUnavailable(error)) {
      reply.header("retry-after", String(databaseRetryAfterSeconds));
      return answer(new ScimError(503, "The database is not answering. Please try again in a moment."));
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, "the disk is full");
      return answer(
        new ScimError(507, "The server's disk is full: nothing can be saved until space is freed."),
      );
    }
    request.log.error({ err: error }, "unhandled error");
    return answer(new ScimError(500, "Something went wrong on our side. Please try again."));
  });
}
