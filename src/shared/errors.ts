import { z } from "zod";

/** The closed set of failure codes. The server maps each to one HTTP status (src/server/errors.ts). */
export const errorCodes = [
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "not_found",
  "conflict",
  "rule_violation",
  "precondition_failed",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "insufficient_storage",
  "internal",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** The wire shape of every failure the API returns. */
export const apiErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Turns zod issues into one sentence a person can act on: "title: Title is required; floor: …". */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.map(String).join(".");
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
