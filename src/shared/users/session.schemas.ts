import { z } from "zod";

/** One signed-in browser of the person asking (GET /api/me/sessions). */
export const mySessionSchema = z.object({
  id: z.string(),
  /** The browser's User-Agent when the session began; null when it sent none. */
  userAgent: z.string().nullable(),
  /** The address the session began from, as the server saw it (behind a proxy only with TRUST_PROXY). */
  ipAddress: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** When the session was last renewed: better-auth refreshes it at most once a day, so this is a day's precision. */
  lastActiveAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** The session this request came with ("This device"). */
  isCurrent: z.boolean(),
});
export type MySession = z.infer<typeof mySessionSchema>;

export const mySessionListSchema = z.object({ items: z.array(mySessionSchema) });
export type MySessionList = z.infer<typeof mySessionListSchema>;

export const sessionIdParamsSchema = z.object({
  sessionId: z
    .string()
    .max(100, "Not a session id")
    .regex(/^[\w-]+$/, "Not a session id"),
});

export const revokedSessionsSchema = z.object({ revoked: z.number().int() });
export type RevokedSessions = z.infer<typeof revokedSessionsSchema>;
