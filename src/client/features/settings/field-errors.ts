import { t as tc } from "@lingui/core/macro";
import { isApiError } from "#client/lib/api-client.ts";

/** Messages by field path ("workingHours.Friday.0.close"), the first for each field. */
export type FieldErrors = Readonly<Record<string, string>>;

export const noFieldErrors: FieldErrors = {};

/** From zod's issues (checked in the browser) or the server's (its 400 lists them the same way). */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    errors[path] ??= issue.message;
  }
  return errors;
}

/** The server's refusal field by field; its whole message under "" when it named no field. */
export function fieldErrorsFromServer(error: unknown): FieldErrors {
  if (isApiError(error) && error.issues.length > 0) return fieldErrorsOf(error.issues);
  return { "": error instanceof Error ? error.message : tc`The settings could not be saved.` };
}

/** The messages for one field and everything inside it ("holidays.2" takes "holidays.2.date"). */
export function errorsWithin(errors: FieldErrors, path: string): string[] {
  return Object.entries(errors)
    .filter(([field]) => field === path || field.startsWith(`${path}.`))
    .map(([, message]) => message);
}
