import { oidcProviderId } from "#server/auth/auth.ts";
import type { ServiceContext } from "#server/context.ts";
import { conflict, forbidden, unauthenticated } from "#server/errors.ts";
import { isTwoFactorPending } from "#server/features/two-factor/two-factor.service.ts";
import type { Technician } from "#shared/tickets/ticket-assignment.ts";
import { roleComesFromSignIn } from "#shared/users/sso-roles.ts";
import type {
  ChooseRoleInput,
  Me,
  UpdateLocaleInput,
  UpdateProfileInput,
  UpdateThemeInput,
} from "#shared/users/user.schemas.ts";
import { roleComesFromMapping } from "./sso-roles.service.ts";
import { toMeDto } from "./user.presenter.ts";
import { findActiveTechnicians, findUserById, setRoleIfUnset, updateUser } from "./user.queries.ts";

export async function getMe(ctx: ServiceContext): Promise<Me> {
  const row = await findUserById(ctx.db, ctx.actor.id);
  if (!row) throw unauthenticated();
  return toMeDto(
    row,
    await isTwoFactorPending(ctx.db, { ...ctx.actor, twoFactorEnabled: row.twoFactorEnabled }),
  );
}

/**
 * What a person changes of their own account: their name (email is the sign-in identity; role is the
 * admin's to change), their light/dark theme and their interface language. Kept on the account, so each
 * follows them to every browser they sign in on.
 */
export async function updateOwnAccount(
  ctx: ServiceContext,
  changes: UpdateProfileInput | UpdateThemeInput | UpdateLocaleInput,
): Promise<Me> {
  const row = await updateUser(ctx.db, ctx.actor.id, changes);
  if (!row) throw unauthenticated();
  return toMeDto(row);
}

/**
 * /role-selection: once, for a person who has no role yet (first Google or organisation sign-in). Not for
 * someone who signs in through the organisation's provider while an admin's mapping gives roles from it
 * (decision 082): their role is the provider's to say, at their next sign-in.
 */
export async function chooseRole(ctx: ServiceContext, { role }: ChooseRoleInput): Promise<Me> {
  if (await roleComesFromMapping(ctx.db, ctx.actor.id, oidcProviderId)) throw forbidden(roleComesFromSignIn);
  const row = await setRoleIfUnset(ctx.db, ctx.actor.id, role);
  if (row) {
    // Their session caches (decision 039) and live streams learn the new role at once, on every instance.
    ctx.dispatcher?.dispatch([{ kind: "session-ended", userId: ctx.actor.id }]);
    return toMeDto(row);
  }
  if (!(await findUserById(ctx.db, ctx.actor.id))) throw unauthenticated();
  throw conflict("Your role is already set. An administrator can change it.");
}

/** The "Assign to…" choices: staff only, names only (e-mails stay with user management). */
export async function listTechnicians(ctx: ServiceContext): Promise<Technician[]> {
  if (ctx.actor.role !== "technician" && ctx.actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can list technicians");
  }
  return findActiveTechnicians(ctx.db);
}
