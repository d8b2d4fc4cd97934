import { homePathFor, type Role } from "./roles.ts";

/** The query parameter /sign-in carries the page a signed-out visitor was sent away from in. */
export const returnParam = "next";

/** The parameter that makes /sign-in say "Please sign in first" once (src/client/features/auth/components/sign-in-form.tsx). */
export const signInNoticeParam = "notice";

/**
 * A page of this site to go back to, or null. Only a path with a single leading "/" is accepted:
 * "//evil.example", "/\evil.example" and "https://…" would leave the site (an open redirect).
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//")) return null;
  // Browsers read "\" as "/" and drop tabs and newlines from URLs, so either could turn the path into "//host".
  if ([...value].some((char) => char === "\\" || char < " " || char === "\u007f")) return null;
  const path = new URL(value, "http://x").pathname;
  // The sign-in screens would only bounce to the home, and role choice is for people without a role.
  if (["/", "/sign-in", "/sign-up", "/role-selection"].includes(path)) return null;
  return value;
}

/** Where a person goes once signed in: someone with no role must choose one first; else back, else home. */
export function pathAfterSignIn(role: Role | null, next: string | null | undefined): string {
  if (role === null) return homePathFor(role);
  return safeReturnPath(next) ?? homePathFor(role);
}

/** /sign-in, remembering `from` when it is a page worth coming back to. */
export function signInPathFrom(from: string): string {
  const next = safeReturnPath(from);
  return next ? `/sign-in?${new URLSearchParams({ [returnParam]: next })}` : "/sign-in";
}
