import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";

/**
 * Tags (decision 071): staff label tickets with short free words ("vpn", "new starter"), which the lists
 * filter by and the CSV export writes. A tag is compared and stored in its normal form: trimmed, inner
 * spaces as one, lowercase.
 */
export const tagMaxLength = 40;
export const maxTagsPerTicket = 20;
/** How many tags a fixed list (the admin setting) may hold. */
export const maxFixedTags = 200;

/** The one form a tag is stored and compared in: "  VPN  Access " → "vpn access". */
export const normalizeTag = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/** One tag as a person types it: normalised, 1–40 characters, no comma (the list's separator). */
export const tagSchema = storableText(
  z
    .string({ error: "A tag must be text" })
    .overwrite(normalizeTag)
    .min(1, "A tag cannot be empty")
    .max(tagMaxLength, `A tag must be at most ${tagMaxLength} characters`)
    .refine((tag) => !tag.includes(","), "A tag cannot contain a comma"),
  "Tag",
);

const tagListSchema = (max: number, label: string) =>
  z
    .array(tagSchema, { error: `${label} must be a list of tags` })
    .max(max, `${label}: at most ${max} tags`)
    .overwrite((tags) => [...new Set(tags)]);

/**
 * PATCH /api/tickets/:ticketId/tags (staff): the tags to add and to remove, so two people tagging at once
 * do not undo each other. A tag in both lists is refused.
 */
export const changeTicketTagsInputSchema = z
  .object({
    add: tagListSchema(maxTagsPerTicket, "add").default([]),
    remove: tagListSchema(maxTagsPerTicket, "remove").default([]),
  })
  .refine(({ add, remove }) => !add.some((tag) => remove.includes(tag)), {
    message: "A tag cannot be both added and removed",
    path: ["remove"],
  });
export type ChangeTicketTagsInput = z.infer<typeof changeTicketTagsInputSchema>;

/**
 * The admin setting (area "tags"): with `fixed` on, only the listed tags may be added to a ticket; tags
 * already on tickets stay until someone removes them.
 */
export const tagSettingsSchema = z.object({
  fixed: z.boolean({ error: "fixed must be true or false" }),
  allowed: tagListSchema(maxFixedTags, "allowed"),
});
export type TagSettings = z.infer<typeof tagSettingsSchema>;
export const defaultTagSettings: TagSettings = { fixed: false, allowed: [] };

/** GET /api/tags (staff): what the tag control suggests, most used first; the fixed list when there is one. */
export const tagSuggestionsQuerySchema = z.object({
  q: z.string().max(tagMaxLength).overwrite(normalizeTag).optional(),
});
export type TagSuggestionsQuery = z.infer<typeof tagSuggestionsQuerySchema>;

export const tagSuggestionsSchema = z.object({
  items: z.array(z.object({ tag: z.string(), count: z.number().int() })),
  /** True when only the listed tags may be added (the admin setting). */
  fixed: z.boolean(),
});
export type TagSuggestions = z.infer<typeof tagSuggestionsSchema>;

/** The refusal a tag outside the fixed list gets (422). */
export const tagNotAllowedMessage = (tag: string) =>
  `The tag “${tag}” is not in the list of allowed tags. Choose one of the listed tags, or ask an administrator to add it.`;
