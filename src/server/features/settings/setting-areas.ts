import type { z } from "zod";
import { defaultDepartmentList, departmentListSchema } from "#shared/departments/department.schemas.ts";
import {
  autoCloseSettingsSchema,
  defaultAutoCloseSettings,
} from "#shared/service-levels/auto-close.schemas.ts";
import {
  businessCalendarSchema,
  defaultBusinessCalendar,
} from "#shared/service-levels/business-calendar.schemas.ts";
import { defaultOnHoldSettings, onHoldSettingsSchema } from "#shared/service-levels/on-hold.schemas.ts";
import { defaultSlaPolicy, slaPolicySchema } from "#shared/service-levels/sla-policy.schemas.ts";
import type { SettingAreaName } from "#shared/settings/settings.schemas.ts";
import { defaultTagSettings, tagSettingsSchema } from "#shared/tags/tag.schemas.ts";
import { defaultTicketIntakeSettings, ticketIntakeSettingsSchema } from "#shared/tickets/ticket-intake.ts";
import { defaultSsoRoleSettings, ssoRoleSettingsSchema } from "#shared/users/sso-roles.ts";
import { defaultTwoFactorSettings, twoFactorSettingsSchema } from "#shared/users/two-factor.ts";

export interface SettingArea<S extends z.ZodType = z.ZodType> {
  /** Checks what an admin sends and what is read back from storage. */
  schema: S;
  /** What the app uses until an admin saves the area. */
  defaultValue: z.output<S>;
  /** The history line when it changes. */
  summary: string;
  /**
   * What a signed-in session may do depends on it: once saved, every instance looks every session up
   * again at its next request (a "sessions-changed" announcement empties the session caches).
   */
  changesSessions?: true;
}

const area = <S extends z.ZodType>(definition: SettingArea<S>) => definition;

/** Every stored settings area; GET and PUT /api/admin/settings/<name> exist for each. */
export const settingAreas = {
  "business-calendar": area({
    schema: businessCalendarSchema,
    defaultValue: defaultBusinessCalendar,
    summary: "Changed the business hours",
  }),
  departments: area({
    schema: departmentListSchema,
    defaultValue: defaultDepartmentList,
    summary: "Changed the departments",
  }),
  "auto-close": area({
    schema: autoCloseSettingsSchema,
    defaultValue: defaultAutoCloseSettings,
    summary: "Changed auto-close of resolved tickets",
  }),
  "on-hold": area({
    schema: onHoldSettingsSchema,
    defaultValue: defaultOnHoldSettings,
    summary: "Changed auto-resolve of tickets on hold",
  }),
  "sla-policies": area({
    schema: slaPolicySchema,
    defaultValue: defaultSlaPolicy,
    summary: "Changed the service levels",
  }),
  "two-factor": area({
    schema: twoFactorSettingsSchema,
    defaultValue: defaultTwoFactorSettings,
    summary: "Changed the two-factor sign-in requirement",
    // Staff without two-factor are held from their next request, not when their cached session expires.
    changesSessions: true,
  }),
  tags: area({
    schema: tagSettingsSchema,
    defaultValue: defaultTagSettings,
    summary: "Changed the list of allowed tags",
  }),
  "ticket-intake": area({
    schema: ticketIntakeSettingsSchema,
    defaultValue: defaultTicketIntakeSettings,
    summary: "Changed who may be named as a new ticket's requester",
  }),
  // Read at each OIDC sign-in (decision 082); a change reaches each person at their next sign-in.
  "sso-roles": area({
    schema: ssoRoleSettingsSchema,
    defaultValue: defaultSsoRoleSettings,
    summary: "Changed the roles given by single sign-on",
  }),
} satisfies Record<SettingAreaName, SettingArea>;

export type SettingValue<N extends SettingAreaName> = z.output<(typeof settingAreas)[N]["schema"]>;
