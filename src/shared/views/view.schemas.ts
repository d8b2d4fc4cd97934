import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { listTicketsQuerySchema } from "#shared/tickets/ticket.schemas.ts";

/**
 * Saved views (decision 071): a named set of a list's filters and sort, as the query string of its address.
 * Personal by default; an administrator shares one with all staff or with a team.
 */
export const viewNameMaxLength = 60;
/** A view's query string: the list's own parameters, at most this long. */
export const viewQueryMaxLength = 1000;
/** How many views one person keeps (their personal ones). */
export const maxPersonalViews = 50;

export const viewSharings = ["personal", "staff", "team"] as const;
export type ViewSharing = (typeof viewSharings)[number];

export const viewIdPattern = /^view_[0-9a-z]{4,40}$/;
export const viewIdSchema = z.string().regex(viewIdPattern, "Not a view id");
export const viewIdParamsSchema = z.object({ viewId: viewIdSchema });

/**
 * The parameters a view never keeps: where a page of the list starts and how long it is, and where a sync
 * starts (decision 079).
 */
const pagingParameters = new Set(["cursor", "limit", "updatedSince"]);

/**
 * A view's query string in its one stored form: the list's known parameters (paging left out), in the
 * schema's order, each value as sent. The caller checks it against the list's request schema
 * (parseViewQuery); unknown parameters are dropped here.
 */
export function normalizeViewQuery(query: string): string {
  const params = new URLSearchParams(query.startsWith("?") ? query.slice(1) : query);
  const out = new URLSearchParams();
  for (const key of Object.keys(listTicketsQuerySchema.shape)) {
    if (pagingParameters.has(key)) continue;
    for (const value of params.getAll(key)) if (value !== "") out.append(key, value);
  }
  return out.toString();
}

/** The query string as the list's route would read it (a repeated parameter as a list). */
export function viewQueryObject(query: string): Record<string, string | string[]> {
  const params = new URLSearchParams(query);
  const object: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    object[key] = values.length > 1 ? values : values[0]!;
  }
  return object;
}

/** Checks a view's query against the list's own request schema: the parsed query, or the first problem. */
export function parseViewQuery(query: string) {
  return listTicketsQuerySchema.safeParse(viewQueryObject(query));
}

const viewNameSchema = storableText(
  z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(viewNameMaxLength, `Name must be at most ${viewNameMaxLength} characters`),
  "Name",
);

/** POST /api/views and PUT /api/views/:viewId: the whole view. */
export const viewInputSchema = z
  .object({
    name: viewNameSchema,
    /** The list's query string, with or without its "?". */
    query: z
      .string({ error: "Query must be a query string" })
      .max(viewQueryMaxLength, `Query must be at most ${viewQueryMaxLength} characters`)
      .default(""),
    sharing: z.enum(viewSharings, { error: "Sharing must be personal, staff or team" }).default("personal"),
    /** The team a view shared with a team is for; null otherwise. */
    teamId: z.string().max(100).nullable().default(null),
  })
  .superRefine((input, ctx) => {
    if (input.sharing === "team" && !input.teamId) {
      ctx.addIssue({ code: "custom", path: ["teamId"], message: "Choose the team to share the view with" });
    }
    if (input.sharing !== "team" && input.teamId) {
      ctx.addIssue({ code: "custom", path: ["teamId"], message: "Only a view shared with a team names one" });
    }
    const parsed = parseViewQuery(normalizeViewQuery(input.query));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      ctx.addIssue({
        code: "custom",
        path: ["query"],
        message: `${issue.path.join(".") || "query"}: ${issue.message}`,
      });
    }
  });
export type ViewInput = z.infer<typeof viewInputSchema>;

/** How many tickets a view shows to the one who looks: exact up to the list's cap, past it `capped`. */
const viewCountSchema = z.object({ count: z.number().int(), capped: z.boolean() });

export const viewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The list's query string (no "?"), to open the view by. */
  query: z.string(),
  sharing: z.enum(viewSharings),
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  /** Whether the one who asks may rename or delete it: its owner (personal), an administrator (shared). */
  canManage: z.boolean(),
  /** Null when it cannot be counted for this person (a filter they may no longer use). */
  count: viewCountSchema.nullable(),
});
export type SavedView = z.infer<typeof viewSchema>;

export const viewListSchema = z.object({ items: z.array(viewSchema) });
export type ViewList = z.infer<typeof viewListSchema>;
