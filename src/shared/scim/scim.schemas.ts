import { z } from "zod";

// SCIM 2.0 (RFC 7643 resources, RFC 7644 protocol) as Helpdesk serves it under /scim/v2 (decision 081).
// Bodies are loose: identity providers send attributes Helpdesk does not keep (titles, phone numbers,
// addresses), which are accepted and ignored.

export const scimUrn = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  enterpriseUser: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

/** SCIM's content type; application/json is accepted as well (RFC 7644 §3.1). */
export const scimContentType = "application/scim+json";

/** Entra ID sends booleans as the strings "True" and "False" in PATCH values. */
const scimBoolean = z.union([z.boolean(), z.string()]);

const scimName = z.looseObject({
  formatted: z.string().nullish(),
  givenName: z.string().nullish(),
  familyName: z.string().nullish(),
});

const scimEmail = z.looseObject({
  value: z.string().nullish(),
  type: z.string().nullish(),
  primary: scimBoolean.nullish(),
});

/** POST and PUT /Users: userName (the e-mail address) is required; the rest is optional. */
export const scimUserInputSchema = z.looseObject({
  schemas: z.array(z.string()).optional(),
  userName: z.string({ error: "userName is required" }).min(1, "userName is required").max(254),
  externalId: z.string().max(255).nullish(),
  name: scimName.optional(),
  displayName: z.string().nullish(),
  emails: z.array(scimEmail).optional(),
  active: scimBoolean.optional(),
  [scimUrn.enterpriseUser]: z.looseObject({ department: z.string().nullish() }).optional(),
});
export type ScimUserInput = z.infer<typeof scimUserInputSchema>;

/** PATCH /Users/{id}: RFC 7644 §3.5.2. `op` in any case ("Replace" from Entra ID). */
export const scimPatchSchema = z.looseObject({
  schemas: z.array(z.string()),
  Operations: z
    .array(
      z.looseObject({
        op: z.string(),
        path: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1, "Operations must hold at least one operation"),
});
export type ScimPatch = z.infer<typeof scimPatchSchema>;

/** GET /Users: a filter and 1-based paging (RFC 7644 §3.4.2). */
export const scimListQuerySchema = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export type ScimListQuery = z.infer<typeof scimListQuerySchema>;

export const scimIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

const scimMeta = z.looseObject({
  resourceType: z.string(),
  created: z.string().optional(),
  lastModified: z.string().optional(),
  location: z.string(),
});

/** A person as SCIM answers them. */
export const scimUserSchema = z.looseObject({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.string().optional(),
  userName: z.string(),
  name: scimName,
  displayName: z.string(),
  emails: z.array(scimEmail),
  active: z.boolean(),
  [scimUrn.enterpriseUser]: z.looseObject({ department: z.string() }).optional(),
  meta: scimMeta,
});
export type ScimUser = z.infer<typeof scimUserSchema>;

export const scimListSchema = z.looseObject({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  startIndex: z.number().int(),
  itemsPerPage: z.number().int(),
  Resources: z.array(z.looseObject({})),
});

/** SCIM's error shape (RFC 7644 §3.12): `status` is a string. */
export const scimErrorSchema = z.looseObject({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string(),
});

/** The discovery documents (ServiceProviderConfig, ResourceTypes, Schemas): any SCIM resource. */
export const scimResourceSchema = z.looseObject({ schemas: z.array(z.string()) });
