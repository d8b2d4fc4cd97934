import { validationFailed } from "../errors.ts";

// Every body better-auth accepts is flat or nearly so (sign-in/social's idToken is the deepest, at 2).
const maxDepth = 8;
// PostgreSQL text cannot hold NUL, and no e-mail, name, password or token legitimately holds a control character.
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

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
    if (typeof value === "string" && hasControlCharacter(value)) {
      const message = "must not contain control characters";
      throw validationFailed(field ? `${field}: ${message}` : message, [{ path, message }]);
    }
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
