import { scimUrn } from "#shared/scim/scim.schemas.ts";
import { scimBasePath } from "#shared/scim/scim-token.schemas.ts";

// The discovery documents of RFC 7644 §4, minimal but valid: what Helpdesk supports of SCIM.

const meta = (baseURL: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${baseURL}${scimBasePath}${path}`,
});

export function serviceProviderConfig(baseURL: string, maxResults: number) {
  return {
    schemas: [scimUrn.serviceProviderConfig],
    documentationUri: `${baseURL}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description:
          "A SCIM token created in Admin settings › Provisioning (SCIM), as Authorization: Bearer.",
        primary: true,
      },
    ],
    meta: meta(baseURL, "ServiceProviderConfig", "/ServiceProviderConfig"),
  };
}

const userResourceType = (baseURL: string) => ({
  schemas: [scimUrn.resourceType],
  id: "User",
  name: "User",
  endpoint: "/Users",
  description: "A person who can sign in to Helpdesk",
  schema: scimUrn.user,
  schemaExtensions: [{ schema: scimUrn.enterpriseUser, required: false }],
  meta: meta(baseURL, "ResourceType", "/ResourceTypes/User"),
});

const listOf = (resources: Record<string, unknown>[]) => ({
  schemas: [scimUrn.listResponse],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const resourceTypes = (baseURL: string) => listOf([userResourceType(baseURL)]);

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "string",
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

const subAttributes = (names: string[]) => names.map((name) => attribute(name));

export function schemas(baseURL: string) {
  return listOf([
    {
      schemas: [scimUrn.schema],
      id: scimUrn.user,
      name: "User",
      description: "A person; userName is their e-mail address",
      attributes: [
        attribute("userName", { required: true, uniqueness: "server" }),
        attribute("name", {
          type: "complex",
          subAttributes: subAttributes(["formatted", "givenName", "familyName"]),
        }),
        attribute("displayName"),
        attribute("emails", {
          type: "complex",
          multiValued: true,
          subAttributes: [...subAttributes(["value", "type"]), attribute("primary", { type: "boolean" })],
        }),
        attribute("active", { type: "boolean" }),
        attribute("externalId", { caseExact: true }),
      ],
      meta: meta(baseURL, "Schema", `/Schemas/${scimUrn.user}`),
    },
    {
      schemas: [scimUrn.schema],
      id: scimUrn.enterpriseUser,
      name: "EnterpriseUser",
      description: "Of the enterprise extension, Helpdesk keeps the department",
      attributes: [attribute("department")],
      meta: meta(baseURL, "Schema", `/Schemas/${scimUrn.enterpriseUser}`),
    },
  ]);
}
