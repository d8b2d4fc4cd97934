import type { GenericEndpointContext, ValidateUserInfoSource } from "better-auth";
import { isAPIError } from "better-auth/api";
import { homePathFor, type Role } from "#shared/users/roles.ts";

/**
 * Roles from the organisation's identity provider (decision 082), as better-auth's sign-in sees them. The
 * rules themselves (the admin setting, the last-admin guard, the history) live with user management
 * (src/server/features/users/sso-roles.service.ts); auth.ts only calls them at the right moments.
 */
export interface OidcRoleMapping {
  /** The role these claims give under the saved mapping, or null when no mapping is in place. */
  roleFor(claims: Record<string, unknown>): Promise<Role | null>;
  /** Gives the person that role (recorded, sessions told); answers the role they hold afterwards. */
  apply(userId: string, role: Role): Promise<Role | null>;
}

/** A sign-in's role, from the moment the provider's verified claims are read until its session exists. */
const mappedRoles = new WeakMap<Request, Role | null>();

/**
 * better-auth's validateUserInfo gate runs at every sign-in through a provider (a new person, a link to an
 * existing account, a returning one) with the provider's verified profile: the ID token's claims, or the
 * userinfo answer when the ID token carries no e-mail. For the OIDC provider, the role the mapping gives
 * them waits here for the session hook. Nothing the browser sends is read.
 */
export async function noteMappedRole(
  mapping: OidcRoleMapping | undefined,
  providerId: string,
  source: ValidateUserInfoSource,
  ctx: GenericEndpointContext | undefined,
) {
  if (!mapping || !ctx?.request || source.method !== "oauth" || source.oauth?.providerId !== providerId)
    return;
  const role = await mapping.roleFor(source.oauth.profile ?? {});
  if (role) mappedRoles.set(ctx.request, role);
}

/**
 * Just before the session is created (after the deactivated person has been refused): the person gets the
 * role their claims give, a new person as much as a returning one.
 */
export async function applyMappedRole(
  mapping: OidcRoleMapping | undefined,
  userId: string,
  ctx: GenericEndpointContext | null | undefined,
) {
  const role = ctx?.request ? mappedRoles.get(ctx.request) : undefined;
  if (!mapping || !ctx?.request || !role) return;
  mappedRoles.set(ctx.request, await mapping.apply(userId, role));
}

/** The part of better-auth's endpoint context an after hook reads here. */
interface CallbackContext {
  path?: string;
  request?: Request;
  context: { returned?: unknown };
}

/**
 * better-auth sends a new person to the sign-in's newUserCallbackURL, /role-selection. A person whose role
 * the mapping gave goes to their home instead: they never see a choice they do not have.
 */
export function homeOfMappedSignIn(ctx: CallbackContext): string | null {
  if (ctx.path !== "/callback/:id" || !ctx.request) return null;
  const role = mappedRoles.get(ctx.request);
  const returned = ctx.context.returned;
  if (!role || !isAPIError(returned)) return null;
  const location = new Headers(returned.headers as HeadersInit | undefined).get("location");
  if (!location) return null;
  const target = new URL(location, "http://helpdesk.invalid");
  return target.pathname === "/role-selection" ? homePathFor(role) : null;
}
