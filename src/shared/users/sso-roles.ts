import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import type { Role } from "./roles.ts";

/**
 * Admin settings › Single sign-on (decision 082): which claim of the organisation's OpenID Connect sign-in
 * is read, and which of its values make someone a technician or an admin. With at least one rule saved,
 * everyone who signs in through that provider gets their role from it at every sign-in (no rule matched:
 * user) and never chooses one.
 */
export const ssoMappedRoles = ["technician", "admin"] as const;
export type SsoMappedRole = (typeof ssoMappedRoles)[number];

export const maxSsoRoleRules = 100;
const maxClaimLength = 100;
const maxValueLength = 256;

export const ssoRoleRuleSchema = z.object({
  value: storableText(
    z
      .string({ error: "A rule's value must be text" })
      .trim()
      .min(1, "A rule's value cannot be empty")
      .max(maxValueLength, `A rule's value must be at most ${maxValueLength} characters`),
    "Value",
  ),
  role: z.enum(ssoMappedRoles, { error: "A rule's role must be technician or admin" }),
});
export type SsoRoleRule = z.infer<typeof ssoRoleRuleSchema>;

export const ssoRoleSettingsSchema = z.object({
  claim: storableText(
    z
      .string({ error: "The claim must be text" })
      .trim()
      .min(1, "Name the claim to read, for example groups")
      .max(maxClaimLength, `The claim must be at most ${maxClaimLength} characters`)
      .refine((claim) => !/\s/.test(claim), "The claim's name cannot contain spaces"),
    "Claim",
  ),
  rules: z
    .array(ssoRoleRuleSchema, { error: "Rules must be a list" })
    .max(maxSsoRoleRules, `At most ${maxSsoRoleRules} rules`)
    .refine(
      (rules) => new Set(rules.map((rule) => rule.value)).size === rules.length,
      "Each value may have only one rule",
    ),
});
export type SsoRoleSettings = z.infer<typeof ssoRoleSettingsSchema>;

export const defaultSsoRoleSettings: SsoRoleSettings = { claim: "groups", rules: [] };

/** "A mapping in place": with no rule, sign-ins go on as before (the person picks their role once). */
export const hasSsoRoleMapping = (settings: SsoRoleSettings) => settings.rules.length > 0;

/**
 * The claim's values as text: a list (groups, roles), or a single string or number (department). A name
 * the profile lacks at its top level is followed through nested objects by its dots (`realm_access.roles`).
 */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  const value =
    claim in claims
      ? claims[claim]
      : claim.split(".").reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), claims);
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item) => typeof item === "string" || typeof item === "number").map(String);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const rank: Record<Role, number> = { user: 0, technician: 1, admin: 2 };

/**
 * The role a sign-in's claims give under the mapping: the highest any matching rule gives (values compared
 * exactly), else user.
 */
export function roleFromClaims(settings: SsoRoleSettings, claims: Record<string, unknown>): Role {
  const values = new Set(claimValues(claims, settings.claim));
  return settings.rules
    .filter((rule) => values.has(rule.value))
    .reduce<Role>((best, rule) => (rank[rule.role] > rank[best] ? rule.role : best), "user");
}

export const roleComesFromSignIn =
  "Your role comes from your organisation's sign-in. Sign out and sign in again with it; an administrator can tell you which group you need.";
