import type { UserRow } from "#server/db/schema/index.ts";
import type { ProvisionedFields } from "#server/features/users/user-management.service.ts";
import { type ScimUser, type ScimUserInput, scimUrn } from "#shared/scim/scim.schemas.ts";
import { unstorableTextReason } from "#shared/text/storable-text.ts";
import { emailSchema } from "#shared/users/user.schemas.ts";
import { invalidValue } from "./scim-error.ts";

/**
 * A person as SCIM speaks of them, flat: what POST and PUT bodies say, and what PATCH operations change
 * one attribute at a time (scim-patch.ts). `touched` says which name attributes were given, so that the
 * name is taken from the most precise one given (name.formatted, then givenName + familyName, then
 * displayName) and otherwise kept.
 */
export interface ScimUserState {
  userName: string;
  email: string | null;
  /** Undefined: not given, so kept as stored; null: removed. */
  externalId: string | null | undefined;
  formatted: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean | null;
  department: string | null;
  touched: Set<"formatted" | "givenName" | "familyName" | "displayName">;
}

/** A boolean, or the strings "True"/"False" in any case (Entra ID's PATCH values). */
export function scimBooleanOf(value: unknown, attribute: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw invalidValue(`${attribute} must be true or false.`);
}

export function textOf(value: unknown, attribute: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") throw invalidValue(`${attribute} must be a string.`);
  const reason = unstorableTextReason(value, attribute);
  if (reason) throw invalidValue(`${reason}.`);
  return value.trim() === "" ? null : value.trim();
}

/** The primary e-mail of a SCIM `emails` list, else its first. */
export function primaryEmailOf(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null;
  const isPrimary = (email: { primary?: unknown }) =>
    email.primary === true || (typeof email.primary === "string" && email.primary.toLowerCase() === "true");
  const chosen = emails.find((email) => isPrimary(email ?? {})) ?? emails[0];
  return textOf((chosen as { value?: unknown } | undefined)?.value, "emails.value");
}

/** A POST or PUT body as a state: what it leaves out is unset (PUT replaces). */
export function stateOfInput(input: ScimUserInput): ScimUserState {
  const touched = new Set<ScimUserState["touched"] extends Set<infer T> ? T : never>();
  const state: ScimUserState = {
    userName: textOf(input.userName, "userName") ?? "",
    email: primaryEmailOf(input.emails),
    externalId: input.externalId === undefined ? undefined : textOf(input.externalId, "externalId"),
    formatted: textOf(input.name?.formatted, "name.formatted"),
    givenName: textOf(input.name?.givenName, "name.givenName"),
    familyName: textOf(input.name?.familyName, "name.familyName"),
    displayName: textOf(input.displayName, "displayName"),
    active: input.active === undefined ? null : scimBooleanOf(input.active, "active"),
    department: textOf(input[scimUrn.enterpriseUser]?.department, "department"),
    touched,
  };
  for (const key of ["formatted", "givenName", "familyName", "displayName"] as const)
    if (state[key]) touched.add(key);
  return state;
}

/** A stored person as a state, for PATCH to change. */
export function stateOfRow(row: UserRow): ScimUserState {
  const { givenName, familyName } = splitName(row.name);
  return {
    userName: row.email,
    email: row.email,
    externalId: row.externalId,
    formatted: row.name,
    givenName,
    familyName,
    displayName: row.name,
    active: row.status === "Active",
    department: row.department,
    touched: new Set(),
  };
}

const isEmail = (text: string | null): text is string => text !== null && emailSchema.safeParse(text).success;

/** What the state sets of a person, with what is not given kept from `current` (or the defaults). */
export function fieldsOfState(state: ScimUserState, current?: UserRow): ProvisionedFields {
  // userName is the e-mail address; an identity provider whose userName is not one gives it in emails.
  const email = isEmail(state.userName) ? state.userName : isEmail(state.email) ? state.email : null;
  if (!email) {
    throw invalidValue("userName must be the person's e-mail address (or give one in emails as primary).");
  }
  const { touched } = state;
  const joined = [state.givenName, state.familyName].filter(Boolean).join(" ");
  const name =
    (touched.has("formatted") && state.formatted) ||
    ((touched.has("givenName") || touched.has("familyName")) && joined) ||
    (touched.has("displayName") && state.displayName) ||
    current?.name ||
    email.split("@")[0]!;
  return {
    name: name.replace(/\s+/g, " ").slice(0, 100),
    email: email.toLowerCase(),
    department: (state.department ?? current?.department ?? "General").slice(0, 100),
    status:
      state.active === null
        ? ((current?.status as "Active" | "Inactive") ?? "Active")
        : state.active
          ? "Active"
          : "Inactive",
    externalId: state.externalId === undefined ? (current?.externalId ?? null) : state.externalId,
  };
}

/** "Ada King Lovelace" → given "Ada King", family "Lovelace"; one word is a given name. */
function splitName(name: string) {
  const words = name.trim().split(/\s+/);
  return words.length < 2
    ? { givenName: name, familyName: null }
    : { givenName: words.slice(0, -1).join(" "), familyName: words.at(-1)! };
}

/** A person as SCIM answers them (RFC 7643 §4.1, with the enterprise extension's department). */
export function toScimUser(row: UserRow, baseURL: string): ScimUser {
  const { givenName, familyName } = splitName(row.name);
  return {
    schemas: [scimUrn.user, scimUrn.enterpriseUser],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.email,
    name: { formatted: row.name, givenName, ...(familyName ? { familyName } : {}) },
    displayName: row.name,
    emails: [{ value: row.email, type: "work", primary: true }],
    active: row.status === "Active",
    [scimUrn.enterpriseUser]: { department: row.department },
    meta: {
      resourceType: "User",
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseURL}/scim/v2/Users/${row.id}`,
    },
  };
}
