import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";

/** Personal: only its owner sees it. Shared: every technician and admin sees it; admins manage it. */
export const cannedResponseScopes = ["personal", "shared"] as const;
export type CannedResponseScope = (typeof cannedResponseScopes)[number];

export const cannedResponseTitleMaxLength = 100;
/** A response is inserted into a comment box, so it may be as long as a comment. */
export const cannedResponseBodyMaxLength = commentMaxLength;

const titleSchema = storableText(
  z
    .string({ error: (issue) => (issue.input === undefined ? "Title is required" : "Title must be text") })
    .trim()
    .min(1, "Title is required")
    .max(cannedResponseTitleMaxLength, `Title must be at most ${cannedResponseTitleMaxLength} characters`),
  "Title",
);

const bodySchema = storableText(
  z
    .string({ error: (issue) => (issue.input === undefined ? "Text is required" : "Text must be text") })
    .trim()
    .min(1, "Text is required")
    .max(cannedResponseBodyMaxLength, `Text must be at most ${cannedResponseBodyMaxLength} characters`),
  "Text",
);

const scopeSchema = z.enum(cannedResponseScopes, { error: "Scope must be personal or shared" });

export const createCannedResponseInputSchema = z.object({
  title: titleSchema,
  body: bodySchema,
  scope: scopeSchema.default("personal"),
});
export type CreateCannedResponseInput = z.input<typeof createCannedResponseInputSchema>;

/** The scope stays what it was: a personal response is not published by editing it. */
export const updateCannedResponseInputSchema = z
  .object({ title: titleSchema.optional(), body: bodySchema.optional() })
  .refine((input) => input.title !== undefined || input.body !== undefined, {
    message: "Change the title or the text",
  });
export type UpdateCannedResponseInput = z.infer<typeof updateCannedResponseInputSchema>;

export const cannedResponseIdPattern = /^crs_[0-9a-f-]{36}$/;
export const cannedResponseIdParamsSchema = z.object({
  responseId: z.string().regex(cannedResponseIdPattern, "Not a response id"),
});

export const listCannedResponsesQuerySchema = z.object({
  scope: scopeSchema.optional(),
  /** Words of the title or text. */
  q: storableText(z.string().trim().max(100, "Search must be at most 100 characters"), "Search").optional(),
});
export type ListCannedResponsesQuery = z.infer<typeof listCannedResponsesQuerySchema>;

export const cannedResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  scope: z.enum(cannedResponseScopes),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type CannedResponse = z.infer<typeof cannedResponseSchema>;

/** Every response the caller may use, sorted by title; a person keeps dozens, not thousands (at most this many). */
export const cannedResponseListLimit = 500;
export const cannedResponseListSchema = z.object({ items: z.array(cannedResponseSchema) });
export type CannedResponseList = z.infer<typeof cannedResponseListSchema>;
