import { invalidFilter } from "./scim-error.ts";

/** What a filter may compare: the e-mail (userName, emails.value), the identity provider's id, ours. */
export type ScimFilter = { attribute: "email" | "externalId" | "id"; value: string };

const attributes: Record<string, ScimFilter["attribute"]> = {
  username: "email",
  "emails.value": "email",
  emails: "email",
  externalid: "externalId",
  id: "id",
};

const corePrefix = "urn:ietf:params:scim:schemas:core:2.0:user:";
const comparison = /^\s*(\S+)\s+(eq)\s+("(?:[^"\\]|\\.)*")\s*$/i;

/**
 * The one filter identity providers send to find a person before they create one (RFC 7644 §3.4.2.2):
 * `userName eq "ada@example.com"` (Entra ID, Okta), `externalId eq "…"` (Entra ID), `id eq "…"`. Other
 * attributes, operators, `and`/`or` and unquoted values are refused with invalidFilter.
 */
export function parseScimFilter(filter: string): ScimFilter {
  const match = comparison.exec(filter);
  if (!match) {
    throw invalidFilter(
      'Only one comparison of the form userName eq "value" (or externalId, id, emails.value) is supported.',
    );
  }
  const [, path = "", , quoted = '""'] = match;
  let name = path.toLowerCase();
  if (name.startsWith(corePrefix)) name = name.slice(corePrefix.length);
  const attribute = attributes[name];
  if (!attribute)
    throw invalidFilter(`Filtering on ${path} is not supported: use userName, externalId or id.`);
  let value: unknown;
  try {
    value = JSON.parse(quoted);
  } catch {
    throw invalidFilter(`The value ${quoted} is not a valid quoted string.`);
  }
  return { attribute, value: String(value) };
}
