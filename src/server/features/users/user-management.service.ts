import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { UserRow } from "#server/db/schema/index.ts";
import { AppError, conflict, forbidden, notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import {
  decodeCursorPair,
  decodeHistoryCursor,
  encodeCursorPair,
  encodeHistoryCursor,
} from "#server/http/history-cursor.ts";
import type { Mailer, MailMessage } from "#server/mail/mailer.ts";
import { adminPasswordResetMail, invitationMail } from "#server/mail/templates.ts";
import { can } from "#shared/permissions.ts";
import type {
  ChangeUserStatusInput,
  EditUserInput,
  FieldChange,
  InviteUserInput,
  ListUsersQuery,
  ManagedUser,
  UserChangeAction,
  UserHistoryPage,
  UserPage,
  UserSort,
  UserSummary,
} from "#shared/users/user-management.schemas.ts";
import {
  lastAdminRule,
  resetEmailSent,
  selfDeactivationRule,
  userChangeFields,
} from "#shared/users/user-management.schemas.ts";
import { deleteSessionsOf, findUserByEmail, findUserById, updateUser } from "./user.queries.ts";
import { insertAccount } from "./user-account.service.ts";
import { toManagedUserDto, toUserChangeDto } from "./user-management.presenter.ts";
import {
  countMatchingUsers,
  countUsers,
  deletePasswordToken,
  deleteUser,
  deleteUserChange,
  findUserChanges,
  findUsersPage,
  insertPasswordToken,
  insertUserChange,
  lockActiveAdminsAnd,
  type UserKeyset,
} from "./user-management.queries.ts";

/** What invitations and admin-sent resets need beyond the database: the mailer and the app's address. */
export interface UserManagementDeps {
  mailer: Mailer;
  baseURL: string;
}

export const notAllowedToManageUsers = "Only administrators can manage users.";
export const emailTaken = "A person with this e-mail address already exists.";
const invitationValidHours = 72;
const resetValidHours = 1;
const historyPageSize = 50;

function requireUserManager(ctx: ServiceContext) {
  if (!can.manageUsers(ctx.actor)) throw forbidden(notAllowedToManageUsers);
}

export async function listUsers(ctx: ServiceContext, query: ListUsersQuery): Promise<UserPage> {
  requireUserManager(ctx);
  const after = query.cursor ? decodeCursor(query.cursor, query.sort) : undefined;
  const [rows, matching] = await Promise.all([
    findUsersPage(ctx.db, { ...query, after, limit: query.limit + 1 }),
    countMatchingUsers(ctx.db, query),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => toManagedUserDto(row.user)),
    matching,
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ value: last.cursorValue, id: last.user.id }) : null,
  };
}

export async function summarizeUsers(ctx: ServiceContext): Promise<UserSummary> {
  requireUserManager(ctx);
  return countUsers(ctx.db);
}

/** Edit: name, role, department and status together, under the last-admin and self-deactivation rules. */
export function editUser(ctx: ServiceContext, userId: string, input: EditUserInput): Promise<ManagedUser> {
  requireUserManager(ctx);
  return applyChange(ctx, userId, (current) => ({
    name: input.name,
    role: input.role,
    department: input.department,
    status: input.status,
    email: current.email,
  })).then(toManagedUserDto);
}

/** Deactivate / Activate. */
export function changeUserStatus(
  ctx: ServiceContext,
  userId: string,
  { status }: ChangeUserStatusInput,
): Promise<ManagedUser> {
  requireUserManager(ctx);
  return applyChange(ctx, userId, (current) => ({ ...fieldsOf(current), status })).then(toManagedUserDto);
}

/** What an identity provider may change of a person over SCIM (decision 081): never their role. */
export interface ProvisionedFields {
  name: string;
  email: string;
  department: string;
  status: "Active" | "Inactive";
  externalId: string | null;
}

/**
 * A change an identity provider made (decision 081), through the same path as an administrator's: the
 * last-admin and self-deactivation rules, the history entry, and a deactivation's sessions and streams.
 */
export function changeProvisionedUser(
  ctx: ServiceContext,
  userId: string,
  next: (current: UserRow) => ProvisionedFields,
): Promise<UserRow> {
  requireUserManager(ctx);
  let externalId: string | null = null;
  return applyChange(
    ctx,
    userId,
    (current) => {
      const fields = next(current);
      externalId = fields.externalId;
      return { ...fieldsOf(current), ...fields, email: fields.email.toLowerCase() };
    },
    () => ({ externalId }),
  );
}

type Fields = Record<(typeof userChangeFields)[number], string | null>;

const fieldsOf = (row: UserRow): Fields => ({
  name: row.name,
  email: row.email,
  role: row.role,
  department: row.department,
  status: row.status,
});

const isActiveAdmin = (fields: Pick<Fields, "role" | "status">) =>
  fields.role === "admin" && fields.status === "Active";

async function applyChange(
  ctx: ServiceContext,
  userId: string,
  next: (current: UserRow) => Fields,
  /** Columns written beside the fields of the history (a provisioned person's externalId). */
  extra: () => Partial<Pick<UserRow, "externalId">> = () => ({}),
): Promise<UserRow> {
  let mustRecheckStreams = false;
  const row = await ctx.db.transaction(async (tx) => {
    // Decided under lock: two admins demoting each other at once cannot leave no active admin.
    const { target, activeAdminIds } = await lockActiveAdminsAnd(tx, userId);
    if (!target) throw notFound("User", userId);
    const before = fieldsOf(target);
    const after = next(target);
    if (before.status === "Active" && after.status === "Inactive" && !can.deactivateUser(ctx.actor, target)) {
      throw ruleViolation(selfDeactivationRule);
    }
    if (isActiveAdmin(before) && !isActiveAdmin(after) && activeAdminIds.length <= 1) {
      throw ruleViolation(lastAdminRule);
    }
    const changes: FieldChange[] = userChangeFields
      .filter((field) => before[field] !== after[field])
      .map((field) => ({ field, from: before[field], to: after[field] }));
    const columns = extra();
    const extraChanged = Object.entries(columns).some(
      ([key, value]) => target[key as keyof typeof columns] !== value,
    );
    if (changes.length === 0 && !extraChanged) return target;
    if (before.email !== after.email && (await findUserByEmail(tx, after.email!))) {
      throw conflict(emailTaken);
    }

    const updated = await updateUser(tx, userId, {
      name: after.name!,
      email: after.email!,
      role: after.role,
      department: after.department!,
      status: after.status!,
      ...columns,
    });
    if (changes.length === 0) return updated!;
    await insertUserChange(tx, {
      id: randomUUID(),
      userId,
      actorId: ctx.actor.id,
      action: actionFor(changes),
      changes,
    });
    // Deactivation ends the person's sessions at once, in the same transaction as the change.
    if (before.status === "Active" && after.status === "Inactive") await deleteSessionsOf(tx, userId);
    mustRecheckStreams = after.status === "Inactive" || before.role !== after.role;
    return updated!;
  });
  // After commit: their open live streams close on every instance (deactivated, or now another role).
  if (mustRecheckStreams) ctx.dispatcher?.dispatch([{ kind: "session-ended", userId }]);
  return row;
}

function actionFor(changes: FieldChange[]): UserChangeAction {
  const [only] = changes;
  if (changes.length === 1 && only?.field === "status") {
    return only.to === "Inactive" ? "deactivated" : "activated";
  }
  return "edited";
}

/**
 * Add user: the person is created Active with the role and department chosen, without a password, and is
 * mailed a one-time link to choose one. If the mail cannot be sent, nobody is created.
 */
export async function inviteUser(
  ctx: ServiceContext,
  deps: UserManagementDeps,
  input: InviteUserInput,
): Promise<ManagedUser> {
  requireUserManager(ctx);
  const invitation = await ctx.db.transaction(async (tx) => {
    const made = await insertInvitation(tx, ctx.actor.id, input);
    if (!made) throw conflict(emailTaken);
    return made;
  });
  const { row, token } = invitation;
  await sendOrUndo(
    deps.mailer,
    await invitationMailOf(ctx.db, deps, invitation),
    // The user row's removal takes its history with it; the token points at nobody and goes too.
    async () => {
      await ctx.db.transaction(async (tx) => {
        await deletePasswordToken(tx, token);
        await deleteUser(tx, row.id);
      });
    },
    "The invitation e-mail could not be sent, so no account was created. Please try again later.",
  );
  return toManagedUserDto(row);
}

/** An invitation's rows: the person, their one-time link, and who invited them. */
export interface Invitation {
  row: UserRow;
  token: string;
  inviterId: string;
}

/**
 * Add user's rows, in the caller's transaction: the person (Active, without a password), their one-time link
 * and the history entry naming the inviter. Undefined when the address already has an account. Used by
 * inviteUser and by a ticket raised for an unknown address when Admin settings › Ticket intake allows it
 * (decision 079), which queues the mail in its own transaction.
 */
export async function insertInvitation(
  tx: Db,
  inviterId: string,
  input: InviteUserInput,
): Promise<Invitation | undefined> {
  const inserted = await insertAccount(tx, inviterId, input, "invited");
  if (!inserted) return undefined;
  const token = newToken();
  await insertPasswordToken(tx, {
    token,
    userId: inserted.id,
    expiresAt: hoursFromNow(invitationValidHours),
  });
  return { row: inserted, token, inviterId };
}

/** The invitation's mail, signed with the inviter's name. */
export async function invitationMailOf(
  db: Db,
  deps: Pick<UserManagementDeps, "baseURL">,
  { row, token, inviterId }: Invitation,
): Promise<MailMessage> {
  const inviter = await findUserById(db, inviterId);
  return invitationMail({
    to: row.email,
    name: row.name,
    invitedBy: inviter?.name ?? "An administrator",
    url: passwordLink(deps.baseURL, token),
    validForHours: invitationValidHours,
  });
}

/** Reset password: mails the person a one-time link to choose a new password. */
export async function sendPasswordReset(
  ctx: ServiceContext,
  deps: UserManagementDeps,
  userId: string,
): Promise<{ message: string }> {
  requireUserManager(ctx);
  const token = newToken();
  const changeId = randomUUID();
  const row = await ctx.db.transaction(async (tx) => {
    const found = await findUserById(tx, userId);
    if (!found) throw notFound("User", userId);
    await insertPasswordToken(tx, { token, userId, expiresAt: hoursFromNow(resetValidHours) });
    await insertUserChange(tx, {
      id: changeId,
      userId,
      actorId: ctx.actor.id,
      action: "password_reset_sent",
      changes: [],
    });
    return found;
  });
  await sendOrUndo(
    deps.mailer,
    adminPasswordResetMail({ to: row.email, name: row.name, url: passwordLink(deps.baseURL, token) }),
    async () => {
      await ctx.db.transaction(async (tx) => {
        await deletePasswordToken(tx, token);
        await deleteUserChange(tx, changeId);
      });
    },
    "The reset e-mail could not be sent. Please try again later.",
  );
  return { message: resetEmailSent };
}

/**
 * Mail goes out after the commit, so a slow mail server never holds a transaction (on PGlite that would
 * stall every request). If it fails, the rows written for it are removed again and the admin is told.
 */
async function sendOrUndo(mailer: Mailer, message: MailMessage, undo: () => Promise<void>, failure: string) {
  try {
    await mailer.send(message);
  } catch {
    await undo();
    throw new AppError("internal", failure);
  }
}

export async function getUserHistory(
  ctx: ServiceContext,
  userId: string,
  cursor: string | undefined,
): Promise<UserHistoryPage> {
  requireUserManager(ctx);
  if (!(await findUserById(ctx.db, userId))) throw notFound("User", userId);
  const after = cursor ? decodeHistoryCursor(cursor) : undefined;
  const rows = await findUserChanges(ctx.db, userId, { after, limit: historyPageSize + 1 });
  const page = rows.slice(0, historyPageSize);
  const last = page.at(-1);
  return {
    items: page.map(toUserChangeDto),
    nextCursor: rows.length > historyPageSize && last ? encodeHistoryCursor(last) : null,
  };
}

const newToken = () => randomBytes(24).toString("base64url");
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 60 * 60 * 1000);

/** better-auth's own reset link: it checks the token and redirects to /reset-password?token=…. */
const passwordLink = (baseURL: string, token: string) =>
  `${baseURL}/api/auth/reset-password/${token}?callbackURL=${encodeURIComponent("/reset-password")}`;

const encodeCursor = ({ value, id }: UserKeyset): string => encodeCursorPair(value, id);

// created_at as PostgreSQL prints it: 2025-11-20 09:30:00.123456+00
const timestampText = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

function decodeCursor(cursor: string, sort: UserSort): UserKeyset {
  const [value, id] = decodeCursorPair(cursor);
  if (sort === "newest" && !timestampText.test(value))
    throw validationFailed("cursor: Not a valid page cursor");
  return { value, id };
}
