import type { ScimPatch } from "#shared/scim/scim.schemas.ts";
import { scimUrn } from "#shared/scim/scim.schemas.ts";
import { invalidSyntax, invalidValue, ScimError } from "./scim-error.ts";
import { primaryEmailOf, type ScimUserState, scimBooleanOf, textOf } from "./scim-user.mapping.ts";

type Op = "add" | "replace" | "remove";

const corePrefix = `${scimUrn.user}:`.toLowerCase();
const enterprisePrefix = `${scimUrn.enterpriseUser}:`.toLowerCase();

/** A path as this module compares it: lower case, without the core schema's URN, the extension's as "enterprise.". */
function normalize(path: string): string {
  const lower = path.trim().toLowerCase();
  if (lower.startsWith(corePrefix)) return lower.slice(corePrefix.length);
  if (lower.startsWith(enterprisePrefix)) return `enterprise.${lower.slice(enterprisePrefix.length)}`;
  if (lower === scimUrn.enterpriseUser.toLowerCase()) return "enterprise";
  return lower;
}

const nameParts = { formatted: "formatted", givenname: "givenName", familyname: "familyName" } as const;

/** Sets one attribute of the state; an attribute Helpdesk does not keep (title, phoneNumbers…) is ignored. */
function apply(state: ScimUserState, op: Op, rawPath: string, value: unknown): void {
  const path = normalize(rawPath);
  const removing = op === "remove";
  if (path === "username") {
    if (removing) throw invalidValue("userName cannot be removed: it is the person's e-mail address.");
    state.userName = textOf(value, "userName") ?? "";
    return;
  }
  if (path === "externalid") {
    state.externalId = removing ? null : textOf(value, "externalId");
    return;
  }
  if (path === "active") {
    if (!removing) state.active = scimBooleanOf(value, "active");
    return;
  }
  if (path === "displayname") {
    state.displayName = removing ? null : textOf(value, "displayName");
    state.touched.add("displayName");
    return;
  }
  if (path === "name") {
    const parts = removing ? {} : objectOf(value, "name");
    for (const [key, part] of Object.entries(parts)) apply(state, op, `name.${key}`, part);
    return;
  }
  const namePart = path.startsWith("name.") ? nameParts[path.slice(5) as keyof typeof nameParts] : undefined;
  if (namePart) {
    state[namePart] = removing ? null : textOf(value, rawPath);
    state.touched.add(namePart);
    return;
  }
  // emails, emails.value, emails[type eq "work"].value, emails[primary eq true].value: the e-mail address.
  if (path === "emails" || path.startsWith("emails[") || path === "emails.value") {
    if (removing) return;
    state.email = Array.isArray(value) ? primaryEmailOf(value) : textOf(value, rawPath);
    return;
  }
  if (path === "enterprise") {
    const extension = removing ? {} : objectOf(value, rawPath);
    if ("department" in extension) apply(state, op, "enterprise.department", extension.department);
    return;
  }
  if (path === "enterprise.department" || path === "department") {
    if (!removing) state.department = textOf(value, "department");
  }
}

function objectOf(value: unknown, attribute: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidValue(`${attribute} needs an object as its value.`);
  }
  return value as Record<string, unknown>;
}

/**
 * Applies a PatchOp (RFC 7644 §3.5.2) to a person's state: `op` in any case ("Replace" from Entra ID),
 * with a path, or without one and an object of attributes as its value (Okta's `{"active": false}`, and
 * Entra ID's path-less replace).
 */
export function applyPatch(state: ScimUserState, patch: ScimPatch): ScimUserState {
  if (!patch.schemas.includes(scimUrn.patchOp)) {
    throw invalidSyntax(`A PATCH body must name the schema ${scimUrn.patchOp}.`);
  }
  for (const operation of patch.Operations) {
    const op = operation.op.toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove") {
      throw invalidSyntax(`Operation "${operation.op}" is not one of add, replace, remove.`);
    }
    if (operation.path !== undefined) {
      apply(state, op, operation.path, operation.value);
      continue;
    }
    if (op === "remove") throw new ScimError(400, "A remove operation needs a path.", "noTarget");
    for (const [key, value] of Object.entries(objectOf(operation.value, "A patch without a path")))
      apply(state, op, key, value);
  }
  return state;
}
