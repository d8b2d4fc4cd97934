import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketSchema } from "#shared/tickets/ticket.schemas.ts";
import { roles } from "#shared/users/roles.ts";

/** The command palette shows a handful of each; it is a jump-to box, not a list. */
export const searchTicketLimit = 8;
export const searchPeopleLimit = 5;

export const searchQuerySchema = z.object({
  /** Words of a ticket's title or description, a TKT id or its beginning, or part of a person's name. */
  q: storableText(
    z
      .string({ error: "Type something to search for" })
      .trim()
      .min(1, "Type something to search for")
      .max(200, "Search must be at most 200 characters"),
    "Search",
  ),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** A person as the palette shows them: name and role only (e-mails stay with user management). */
export const personResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(roles),
});
export type PersonResult = z.infer<typeof personResultSchema>;

export const searchResultsSchema = z.object({
  tickets: z.array(ticketSchema),
  /** Always empty for users: only staff find people. */
  people: z.array(personResultSchema),
});
export type SearchResults = z.infer<typeof searchResultsSchema>;
