import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";

/** Read: GET and HEAD only. Write: everything its owner may do. */
export const apiTokenScopes = ["read", "write"] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

export const apiTokenExpiryDays = [7, 30, 90, 365] as const;
export const apiTokenNameMaxLength = 100;
/** Active (not revoked, not expired) tokens one person may hold at once. */
export const apiTokenActiveLimit = 20;

/** `hd_<id>_<secret>`: the id finds the row, the secret (32 random bytes, base64url) is checked against its hash. */
export const apiTokenPattern = /^hd_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
export const apiTokenIdPattern = /^[0-9a-f]{16}$/;

export const createApiTokenInputSchema = z.object({
  name: storableText(
    z
      .string({ error: (issue) => (issue.input === undefined ? "Name is required" : "Name must be text") })
      .trim()
      .min(1, "Name is required")
      .max(apiTokenNameMaxLength, `Name must be at most ${apiTokenNameMaxLength} characters`),
    "Name",
  ),
  scope: z.enum(apiTokenScopes, { error: "Scope must be read or write" }),
  expiresInDays: z
    .union([...apiTokenExpiryDays.map((days) => z.literal(days)), z.null()], {
      error: "Expires in days must be 7, 30, 90, 365 or null (never)",
    })
    .optional()
    .default(null),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInputSchema>;

export const apiTokenIdParamsSchema = z.object({
  tokenId: z.string().regex(apiTokenIdPattern, "Not a token id"),
});

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters, to recognise it; never the secret. */
  prefix: z.string(),
  scope: z.enum(apiTokenScopes),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ items: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** The answer to creating a token: the only time its secret is shown. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
