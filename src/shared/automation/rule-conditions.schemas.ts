import { z } from "zod";
import { customFieldIdSchema } from "#shared/custom-fields/custom-field.schemas.ts";
import { tagSchema } from "#shared/tags/tag.schemas.ts";
import { teamIdSchema } from "#shared/teams/team.schemas.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketCategories, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { type RuleCondition, type RuleTrigger, ruleClocks } from "./rule-conditions.ts";

/** How many conditions one rule may have, and phrases one words condition. */
export const ruleConditionsMax = 20;
export const rulePhrasesMax = 20;
/** The longest a time-based condition waits: a year of hours. */
export const ruleElapsedHoursMax = 24 * 366;

const op = z.enum(["is", "is_not"], { error: "A condition compares with is or is not" });

/** Text a person typed for a rule: trimmed, not empty, at most `max` characters, storable. */
export const ruleText = (label: string, max: number) =>
  storableText(
    z
      .string({ error: `${label} must be text` })
      .trim()
      .min(1, `${label} cannot be empty`)
      .max(max, `${label} must be at most ${max} characters`),
    label,
  );

const conditionSchema = z.discriminatedUnion(
  "field",
  [
    z.object({
      field: z.literal("status"),
      op,
      value: z.enum(ticketStatuses, { error: `Status must be ${ticketStatuses.join(", ")}` }),
    }),
    z.object({
      field: z.literal("priority"),
      op,
      value: z.enum(ticketPriorities, { error: `Priority must be ${ticketPriorities.join(", ")}` }),
    }),
    z.object({
      field: z.literal("category"),
      op,
      value: z.enum(ticketCategories, { error: `Category must be ${ticketCategories.join(", ")}` }),
    }),
    z.object({ field: z.literal("team"), op, value: teamIdSchema.nullable() }),
    z.object({
      field: z.literal("assignee"),
      op,
      value: z.string({ error: "Assignee must be a technician or empty" }).min(1).max(64).nullable(),
    }),
    z.object({ field: z.literal("tag"), op, value: tagSchema }),
    z.object({ field: z.literal("department"), op, value: ruleText("Department", 100) }),
    z.object({
      field: z.literal("words"),
      in: z.enum(["title", "title_or_description"], {
        error: "Words are looked for in the title, or in both",
      }),
      value: z
        .array(ruleText("A word or phrase", 60), { error: "Words must be a list" })
        .min(1, "Give at least one word or phrase")
        .max(rulePhrasesMax, `At most ${rulePhrasesMax} words or phrases`),
    }),
    z.object({
      field: z.literal("custom_field"),
      fieldId: customFieldIdSchema,
      op,
      value: ruleText("Custom field value", 200),
    }),
    z.object({ field: z.literal("on_hold"), value: z.boolean({ error: "On hold is yes or no" }) }),
    z.object({
      field: z.literal("changed_by"),
      value: z.enum(["requester", "staff"], { error: "Changed by is the requester or staff" }),
    }),
    z.object({
      field: z.literal("elapsed"),
      since: z.enum(ruleClocks, { error: "Time is counted since creation, the last activity or the hold" }),
      hours: z
        .number({ error: "Hours must be a number" })
        .positive("Hours must be more than 0")
        .max(ruleElapsedHoursMax, `Hours must be at most ${ruleElapsedHoursMax}`),
      business: z.boolean({ error: "Business hours is yes or no" }).default(true),
    }),
  ],
  { error: "Unknown condition" },
);

/**
 * A rule's conditions for its trigger: who changed the ticket means something only to a rule run by a
 * change, and a time-based rule needs a clock (without one it would act on every open ticket at once).
 */
export function ruleConditionsSchemaFor(trigger: RuleTrigger) {
  return z
    .array(conditionSchema, { error: "Conditions must be a list" })
    .max(ruleConditionsMax, `At most ${ruleConditionsMax} conditions`)
    .superRefine((conditions, ctx) => {
      const fields = conditions.map((condition) => condition.field);
      if (trigger !== "changed" && fields.includes("changed_by")) {
        ctx.addIssue({
          code: "custom",
          message: "Changed by applies only to rules run when a ticket changes",
        });
      }
      if (trigger !== "time" && fields.includes("elapsed")) {
        ctx.addIssue({ code: "custom", message: "Time since applies only to time-based rules" });
      }
      if (trigger === "time" && !fields.includes("elapsed")) {
        ctx.addIssue({ code: "custom", message: "A time-based rule needs a “time since” condition" });
      }
    }) as z.ZodType<RuleCondition[], unknown>;
}
