import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { roles, userStatuses } from "./roles.ts";
import { emailSchema, personIdSchema, personNameSchema } from "./user.schemas.ts";

export const userPageSize = 25;

/** The orders the user list offers; each has its own keyset (see user-management.queries.ts). */
export const userSorts = ["newest", "name"] as const;
export type UserSort = (typeof userSorts)[number];

export const departmentSchema = storableText(
  z
    .string({ error: "Department is required" })
    .trim()
    .min(1, "Department is required")
    .max(100, "Department must be at most 100 characters"),
  "Department",
);

const roleSchema = z.enum(roles, { error: "Role must be user, technician or admin" });
const statusSchema = z.enum(userStatuses, { error: "Status must be Active or Inactive" });

export const listUsersQuerySchema = z.object({
  /** Part of a name, e-mail address or department, any case. */
  q: storableText(z.string().trim().max(100, "Search must be at most 100 characters"), "Search").optional(),
  role: roleSchema.optional(),
  status: statusSchema.optional(),
  sort: z.enum(userSorts).default("newest"),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(userPageSize),
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

/** One person as user management shows them (admins only). */
export const managedUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(roles).nullable(),
  department: z.string(),
  status: z.enum(userStatuses),
  createdAt: z.iso.datetime(),
  lastLogin: z.iso.datetime().nullable(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const userPageSchema = z.object({
  items: z.array(managedUserSchema),
  /** How many people match the search and filters (the "M" of "Showing N of M users"). */
  matching: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type UserPage = z.infer<typeof userPageSchema>;

/** The counts of /admin/user-management and of the admin Overview, from one aggregate query. */
export const userSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  users: z.number().int(),
  technicians: z.number().int(),
  admins: z.number().int(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** Edit: every field of the edit-user dialog is required. */
export const editUserInputSchema = z.object({
  name: personNameSchema,
  role: roleSchema,
  department: departmentSchema,
  status: statusSchema,
});
export type EditUserInput = z.infer<typeof editUserInputSchema>;

export const changeUserStatusInputSchema = z.object({ status: statusSchema });
export type ChangeUserStatusInput = z.infer<typeof changeUserStatusInputSchema>;

/** Add user: the person sets their own password from the mailed invitation; there is no default password. */
export const inviteUserInputSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  role: roleSchema,
  department: departmentSchema,
});
export type InviteUserInput = z.infer<typeof inviteUserInputSchema>;

export const userIdParamsSchema = z.object({ userId: personIdSchema("User id") });

export const userChangeActions = [
  "invited",
  "edited",
  "deactivated",
  "activated",
  "password_reset_sent",
  /** The OIDC provider's claims gave the person another role at their sign-in (decision 082). */
  "role_from_sign_in",
  // Created by an identity provider over SCIM (decision 081), acting as the administrator who made its token.
  "provisioned",
] as const;
export type UserChangeAction = (typeof userChangeActions)[number];

export const userChangeFields = ["name", "email", "role", "department", "status"] as const;
export type UserChangeField = (typeof userChangeFields)[number];

export const fieldChangeSchema = z.object({
  field: z.enum(userChangeFields),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type FieldChange = z.infer<typeof fieldChangeSchema>;

/** One entry of a person's history: who did what, when, and each field from → to. */
export const userChangeSchema = z.object({
  id: z.string(),
  action: z.enum(userChangeActions),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  changes: z.array(fieldChangeSchema),
  at: z.iso.datetime(),
});
export type UserChange = z.infer<typeof userChangeSchema>;

export const userHistoryPageSchema = z.object({
  items: z.array(userChangeSchema),
  nextCursor: z.string().nullable(),
});
export type UserHistoryPage = z.infer<typeof userHistoryPageSchema>;

export const historyQuerySchema = z.object({ cursor: z.string().max(400).optional() });

export const messageSchema = z.object({ message: z.string() });

/** The toast after Reset password. */
export const resetEmailSent = "Reset email was sent successfully";
export const lastAdminRule = "The last active administrator can be neither deactivated nor demoted.";
export const selfDeactivationRule = "You cannot deactivate your own account.";

/** GET /api/admin/users/export.csv: the user list's search, filters and order, without paging. */
export const exportUsersQuerySchema = listUsersQuerySchema.omit({ cursor: true, limit: true });
export type ExportUsersQuery = z.infer<typeof exportUsersQuerySchema>;
