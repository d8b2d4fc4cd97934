import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";

// Admin settings › Provisioning (SCIM): the tokens identity providers provision people with (decision 081).

export const scimTokenNameMaxLength = 100;
/** Tokens that may be active at once: one per identity provider, with room for a rotation. */
export const scimTokenActiveLimit = 5;

/** `scim_<id>_<secret>`: the id finds the row, the secret (32 random bytes, base64url) is checked against its hash. */
export const scimTokenPattern = /^scim_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
export const scimTokenIdPattern = /^[0-9a-f]{16}$/;

/** The path SCIM is served under; the base URL an identity provider is given is BASE_URL followed by it. */
export const scimBasePath = "/scim/v2";

export const createScimTokenInputSchema = z.object({
  name: storableText(
    z
      .string({ error: (issue) => (issue.input === undefined ? "Name is required" : "Name must be text") })
      .trim()
      .min(1, "Name is required")
      .max(scimTokenNameMaxLength, `Name must be at most ${scimTokenNameMaxLength} characters`),
    "Name",
  ),
});
export type CreateScimTokenInput = z.input<typeof createScimTokenInputSchema>;

export const scimTokenIdParamsSchema = z.object({
  scimTokenId: z.string().regex(scimTokenIdPattern, "Not a token id"),
});

export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters, to recognise it; never the secret. */
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  /** The administrator who created it: the token acts as them, and stops working when they are gone. */
  createdByName: z.string().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

export const scimTokenListSchema = z.object({
  /** What to enter as the identity provider's "Tenant URL" / "Base URL": BASE_URL + /scim/v2. */
  baseUrl: z.string(),
  items: z.array(scimTokenSchema),
});
export type ScimTokenList = z.infer<typeof scimTokenListSchema>;

/** The answer to creating a token: the only time its secret is shown. */
export const createdScimTokenSchema = scimTokenSchema.extend({ token: z.string() });
export type CreatedScimToken = z.infer<typeof createdScimTokenSchema>;
