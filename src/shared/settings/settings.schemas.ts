import { z } from "zod";

/**
 * The Admin settings areas (decision 023), one stored value each. Every area has a shared zod schema and a
 * default (src/server/features/settings/setting-areas.ts), so the browser's form and the server check the
 * same rules. Custom fields are rows of their own and record their changes in the same history.
 */
export const settingAreaNames = [
  "business-calendar",
  "sla-policies",
  "departments",
  "auto-close",
  "on-hold",
  "two-factor",
  "tags",
  "ticket-intake",
  "sso-roles",
] as const;
export type SettingAreaName = (typeof settingAreaNames)[number];

/** History areas: the stored settings plus configuration kept in tables of its own. */
export const adminChangeAreas = [
  ...settingAreaNames,
  "custom-fields",
  "webhooks",
  "teams",
  "automation",
  "provisioning",
] as const;
export type AdminChangeArea = (typeof adminChangeAreas)[number];

/** How each area is named to a person (history, headings). */
export const adminChangeAreaLabels: Record<AdminChangeArea, string> = {
  "business-calendar": "Business hours",
  "sla-policies": "Service levels",
  departments: "Departments",
  "auto-close": "Auto-close",
  "on-hold": "On hold",
  "two-factor": "Two-factor sign-in",
  tags: "Tags",
  "ticket-intake": "Ticket intake",
  "sso-roles": "Single sign-on",
  "custom-fields": "Custom fields",
  webhooks: "Webhooks",
  teams: "Teams and routing",
  automation: "Automation rules",
  provisioning: "Provisioning (SCIM)",
};

/** One entry of the admin change history: who changed what, when, and the value before and after. */
export const adminChangeSchema = z.object({
  id: z.string(),
  area: z.string(),
  summary: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.iso.datetime(),
});
export type AdminChange = z.infer<typeof adminChangeSchema>;

export const adminChangePageSchema = z.object({
  items: z.array(adminChangeSchema),
  nextCursor: z.string().nullable(),
});
export type AdminChangePage = z.infer<typeof adminChangePageSchema>;

export const adminChangeQuerySchema = z.object({
  area: z.enum(adminChangeAreas, { error: "area: Not a settings area" }).optional(),
  cursor: z.string().max(400).optional(),
});
export type AdminChangeQuery = z.infer<typeof adminChangeQuerySchema>;

/** Every settings write answers with the stored value and when and by whom it was last changed. */
export function settingEnvelopeSchema<T extends z.ZodType>(value: T) {
  return z.object({
    value,
    updatedAt: z.iso.datetime().nullable(),
    updatedByName: z.string().nullable(),
  });
}
export interface SettingEnvelope<T> {
  value: T;
  /** Null while the area still holds its default. */
  updatedAt: string | null;
  updatedByName: string | null;
}

export const settingsSaved = "Settings saved";
export const onlyAdminsConfigure = "Only administrators can change the settings.";
