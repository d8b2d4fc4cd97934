import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { type ViewSharing, viewSharings } from "#shared/views/view.schemas.ts";
import { teams } from "./teams.ts";
import { users } from "./users.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Saved views of the ticket list (decision 071): a name and the list's query string. A personal view is its
 * owner's alone; a shared one (made by an administrator) is every staff member's, or a team's members'.
 * A shared view outlives its author's account (owner_id set null); a team's views go with the team.
 */
export const savedViews = pgTable(
  "saved_views",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** The list's query string in its normal form (normalizeViewQuery), checked when saved. */
    query: text("query").notNull(),
    sharing: text("sharing", { enum: viewSharings }).$type<ViewSharing>().notNull().default("personal"),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("saved_views_sharing_check", sql`${t.sharing} in ('personal', 'staff', 'team')`),
    check("saved_views_team_check", sql`(${t.sharing} = 'team') = (${t.teamId} is not null)`),
    // One name per person among their own, and one among the shared ones, whatever the case: the menu
    // never shows two entries a person cannot tell apart.
    uniqueIndex("saved_views_personal_name_idx")
      .on(t.ownerId, sql`lower(${t.name})`)
      .where(sql`${t.sharing} = 'personal'`),
    uniqueIndex("saved_views_shared_name_idx")
      .on(sql`lower(${t.name})`)
      .where(sql`${t.sharing} <> 'personal'`),
    index("saved_views_owner_idx").on(t.ownerId),
    index("saved_views_team_idx").on(t.teamId).where(sql`${t.teamId} is not null`),
  ],
);

export type SavedViewRow = typeof savedViews.$inferSelect;
