// Zod-free: what an automation rule's conditions say and whether a ticket meets them (decision 076). The
// server runs it on the ticket a change left, and on the open tickets for "Try"; the admin's form reads the
// same types.
import type { CustomFieldValues } from "#shared/custom-fields/custom-field-values.ts";
import type { BusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { businessMinutesBetween } from "#shared/service-levels/business-hours.ts";
import { customFieldValueMatches, titleHasPhrase } from "#shared/teams/routing.ts";
import type { TicketCategory, TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/**
 * When a rule is looked at: a ticket was created, a ticket was changed (by a person, a macro or the API;
 * never by a rule, decision 076), or a clock ran out (the time-based rules' job).
 */
export const ruleTriggers = ["created", "changed", "time"] as const;
export type RuleTrigger = (typeof ruleTriggers)[number];

/** "is" or "is not": a ticket's field against one value. */
export type Comparison = "is" | "is_not";

/** From when a time-based condition counts. */
export const ruleClocks = ["created", "updated", "on_hold"] as const;
export type RuleClock = (typeof ruleClocks)[number];

export type RuleCondition =
  | { field: "status"; op: Comparison; value: TicketStatus }
  | { field: "priority"; op: Comparison; value: TicketPriority }
  | { field: "category"; op: Comparison; value: TicketCategory }
  /** A team's id; null: in no team. */
  | { field: "team"; op: Comparison; value: string | null }
  /** A technician's id; null: unassigned. */
  | { field: "assignee"; op: Comparison; value: string | null }
  /** Has the tag ("is"), or has it not ("is_not"). */
  | { field: "tag"; op: Comparison; value: string }
  /** The requester's department, whatever its case. */
  | { field: "department"; op: Comparison; value: string }
  /** The title (or title and description) holds one of the phrases as whole words, whatever the case. */
  | { field: "words"; in: "title" | "title_or_description"; value: string[] }
  | { field: "custom_field"; fieldId: string; op: Comparison; value: string }
  | { field: "on_hold"; value: boolean }
  /** Who made the change a "changed" rule looks at: the requester, or staff (a person, a macro). */
  | { field: "changed_by"; value: "requester" | "staff" }
  /** Time-based rules only: at least `hours` since the clock, counted in business hours or on the clock. */
  | { field: "elapsed"; since: RuleClock; hours: number; business: boolean };

export type RuleConditionField = RuleCondition["field"];

/** What of a ticket the conditions read. */
export interface RuleTicket {
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  category: TicketCategory;
  teamId: string | null;
  assignedTo: string | null;
  tags: readonly string[];
  department: string;
  customFields: CustomFieldValues;
  createdAt: Date;
  updatedAt: Date;
  onHoldSince: Date | null;
}

/** What else a condition may need: who changed the ticket, the time and the business calendar. */
export interface RuleContext {
  changedBy: "requester" | "staff" | null;
  now: Date;
  calendar: BusinessCalendar;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function compared(op: Comparison, holds: boolean) {
  return op === "is" ? holds : !holds;
}

function clockOf(ticket: RuleTicket, since: RuleClock): Date | null {
  if (since === "created") return ticket.createdAt;
  if (since === "updated") return ticket.updatedAt;
  return ticket.onHoldSince;
}

/** Hours since the clock, or null when it is not running (a ticket not on hold has no hold clock). */
export function elapsedHours(
  ticket: RuleTicket,
  condition: Extract<RuleCondition, { field: "elapsed" }>,
  context: Pick<RuleContext, "now" | "calendar">,
): number | null {
  const from = clockOf(ticket, condition.since);
  if (!from) return null;
  const minutes = condition.business
    ? businessMinutesBetween(context.calendar, from, context.now)
    : (context.now.getTime() - from.getTime()) / 60_000;
  return minutes / 60;
}

/** Whether one condition holds for the ticket. */
export function conditionHolds(condition: RuleCondition, ticket: RuleTicket, context: RuleContext): boolean {
  switch (condition.field) {
    case "status":
      return compared(condition.op, ticket.status === condition.value);
    case "priority":
      return compared(condition.op, ticket.priority === condition.value);
    case "category":
      return compared(condition.op, ticket.category === condition.value);
    case "team":
      return compared(condition.op, ticket.teamId === condition.value);
    case "assignee":
      return compared(condition.op, ticket.assignedTo === condition.value);
    case "tag":
      return compared(
        condition.op,
        ticket.tags.some((tag) => same(tag, condition.value)),
      );
    case "department":
      return compared(condition.op, same(ticket.department, condition.value));
    case "words": {
      const text = condition.in === "title" ? ticket.title : `${ticket.title}\n${ticket.description}`;
      return condition.value.some((phrase) => titleHasPhrase(text, phrase));
    }
    case "custom_field":
      return compared(
        condition.op,
        customFieldValueMatches(condition.value, ticket.customFields[condition.fieldId]),
      );
    case "on_hold":
      return (ticket.onHoldSince !== null) === condition.value;
    case "changed_by":
      return context.changedBy === condition.value;
    case "elapsed": {
      const hours = elapsedHours(ticket, condition, context);
      return hours !== null && hours >= condition.hours;
    }
  }
}

/** Every condition holds (a rule with none holds for every ticket its trigger brings). */
export function conditionsHold(
  conditions: readonly RuleCondition[],
  ticket: RuleTicket,
  context: RuleContext,
): boolean {
  return conditions.every((condition) => conditionHolds(condition, ticket, context));
}
