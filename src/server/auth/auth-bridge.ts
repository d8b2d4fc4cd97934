import { validationFailed } from "#server/errors.ts";
import { unstorableTextReason } from "#shared/text/storable-text.ts";

// Every body better-auth accepts is flat or nearly so (sign-in/social's idToken is the deepest, at 2).
const maxDepth = 8;
const labelOf = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

/**
 * Refuses, with 400 naming the field, a body better-auth would choke on: nesting deep enough to
 * overflow its stack, or a string PostgreSQL cannot store (both answered 500 before).
 */
export function refuseUnstorableInput(body: unknown): void {
  // Iterative on purpose: the point is to survive bodies that would overflow a recursive walk.
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: body, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string[] };
    const field = path.join(".");
    // The same storable-text rule as every other text field (src/shared/text/storable-text.ts).
    const reason =
      typeof value === "string" ? unstorableTextReason(value, labelOf(path.at(-1) ?? "Text")) : null;
    if (reason) throw validationFailed(field ? `${field}: ${reason}` : reason, [{ path, message: reason }]);
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= maxDepth) {
      const message = `is nested too deeply (at most ${maxDepth} levels)`;
      throw validationFailed(`${field}: ${message}`, [{ path, message }]);
    }
    for (const [key, child] of Object.entries(value)) pending.push({ value: child, path: [...path, key] });
  }
}

/**
 * better-auth repeats the session token in the JSON of sign-up, sign-in and get-session. The HttpOnly
 * cookie already carries it; in a body, any script on the page (or a cached response) could read it.
 */
export function withoutSessionToken(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { token: _token, ...rest } = body as Record<string, unknown>;
  const session = rest.session;
  if (typeof session === "object" && session !== null && !Array.isArray(session)) {
    const { token: _sessionToken, ...sessionRest } = session as Record<string, unknown>;
    return { ...rest, session: sessionRest };
  }
  return rest;
}
