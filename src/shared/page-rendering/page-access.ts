import {
  pathAfterSignIn,
  returnParam,
  signInNoticeParam,
  signInPathFrom,
} from "#shared/users/return-path.ts";
import { homePathFor, type Role } from "#shared/users/roles.ts";

/**
 * Who may open each page of the app, written once: the server redirects by it before it sends a page
 * (decision 065), and the client's route guards (src/client/app/routes.tsx) say the same, which
 * src/client/app/routes.test.tsx checks. A path not listed here is open to everyone.
 * - `signedOut`: the sign-in screens; a signed-in person goes back where they came from, or home.
 * - `signedIn`: needs a session; `roles` narrows it (anyone else goes to their own home), `allowNoRole` lets
 *   a person without a role in (role selection), `isTwoFactorSetup` one who must set up two-factor sign-in.
 */
export type PageAccess =
  | { signedOut: true }
  | {
      signedIn: true;
      roles?: readonly Role[];
      allowNoRole?: boolean;
      isTwoFactorSetup?: boolean;
      /** The sign-in page then says "Please sign in first" (signInNoticeParam). */
      saysSignInFirst?: boolean;
    };

const signedIn = (rules: Omit<Extract<PageAccess, { signedIn: true }>, "signedIn"> = {}): PageAccess => ({
  signedIn: true,
  ...rules,
});
const staff = signedIn({ roles: ["technician", "admin"] });

/** Route patterns as the client's router writes them (`:name` is one segment). */
export const pageAccess: Readonly<Record<string, PageAccess>> = {
  "/": { signedOut: true },
  "/sign-in": { signedOut: true },
  "/role-selection": signedIn({ allowNoRole: true, saysSignInFirst: true }),
  "/two-factor-setup": signedIn({ isTwoFactorSetup: true, saysSignInFirst: true }),
  "/user-home": signedIn({ roles: ["user", "admin"] }),
  "/technician-home": signedIn({ roles: ["technician"] }),
  "/admin-home": signedIn({ roles: ["admin"] }),
  "/admin/settings": signedIn({ roles: ["admin"] }),
  "/admin/teams": signedIn({ roles: ["admin"] }),
  "/admin/automation": signedIn({ roles: ["admin"] }),
  "/canned-responses": staff,
  "/macros": staff,
  "/kb/new": staff,
  "/kb/stats": staff,
  "/kb/:slug/edit": staff,
  "/kb/:slug/history": staff,
  "/reports": staff,
  "/profile": signedIn(),
  "/tickets": signedIn(),
  "/tickets/:ticketId": signedIn(),
  "/known-issues/:ticketId": signedIn(),
  "/notifications": signedIn(),
  "/kb": signedIn(),
  "/kb/:slug": signedIn(),
  "/admin/user-management": signedIn(),
  "/test-notifications": signedIn(),
  "/debug-notifications": signedIn(),
};

const patterns = Object.entries(pageAccess).map(([pattern, access]) => {
  const segments = pattern.split("/").filter(Boolean);
  return { segments, access, literals: segments.filter((segment) => !segment.startsWith(":")).length };
});
// A literal segment wins over a parameter (/kb/new is not the article "new"), as in the client's router.
patterns.sort((a, b) => b.literals - a.literals);

const matches = (patternSegments: readonly string[], segments: readonly string[]) =>
  patternSegments.length === segments.length &&
  patternSegments.every((segment, index) => segment.startsWith(":") || segment === segments[index]);

/** Whether `pathname` is a page of the route `pattern` ("/tickets/:ticketId"), as the client's router matches. */
export const isRouteOf = (pattern: string, pathname: string) =>
  matches(pattern.split("/").filter(Boolean), pathname.split("/").filter(Boolean));

/** The access rule of the page at `pathname`, or null for a page open to everyone. */
export function pageAccessOf(pathname: string): PageAccess | null {
  const segments = pathname.split("/").filter(Boolean);
  return patterns.find((pattern) => matches(pattern.segments, segments))?.access ?? null;
}

/** Who is asking, as far as the pages' rules go (GET /api/me's answer). */
export interface PageVisitor {
  role: Role | null;
  mustSetUpTwoFactor: boolean;
}

/**
 * Where a request for `url` (path and query) is sent instead, or null when the page is the visitor's to
 * see: signed out → /sign-in, remembering the page; a person who must set up two-factor sign-in → its
 * setup; no role → role selection; another role's page, or role selection with a role → their own home;
 * the sign-in screens, signed in → the page they came for, or home. The same decisions as the client's guards (src/client/app/guards.tsx).
 */
export function redirectFor(url: string, visitor: PageVisitor | null): string | null {
  const { pathname, searchParams } = new URL(url, "http://localhost");
  const access = pageAccessOf(pathname);
  if (!access) return null;
  if ("signedOut" in access) {
    if (!visitor) return null;
    if (visitor.mustSetUpTwoFactor) return "/two-factor-setup";
    return pathAfterSignIn(visitor.role, searchParams.get(returnParam));
  }
  if (!visitor) {
    const signIn = signInPathFrom(url);
    if (!access.saysSignInFirst) return signIn;
    return `${signIn}${signIn.includes("?") ? "&" : "?"}${signInNoticeParam}=sign-in-first`;
  }
  if (access.isTwoFactorSetup) return null;
  if (visitor.mustSetUpTwoFactor) return "/two-factor-setup";
  if (visitor.role === null) return access.allowNoRole ? null : homePathFor(null);
  // The role is chosen once: the page itself sends anyone who has one home (src/client/pages/role-selection.tsx).
  if (pathname === "/role-selection") return homePathFor(visitor.role);
  if (access.roles && !access.roles.includes(visitor.role)) return homePathFor(visitor.role);
  return null;
}
