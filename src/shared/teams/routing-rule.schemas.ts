import { z } from "zod";
import { customFieldIdSchema } from "#shared/custom-fields/custom-field.schemas.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketCategories } from "#shared/tickets/ticket.schemas.ts";
import { teamIdSchema } from "./team.schemas.ts";

/**
 * Routing rules (decision 069): administrators' rules that put a new ticket in a team, tried in order; the
 * first whose every condition holds wins, and with none the default team (if any) takes it. A rule has at
 * least one condition: the category, the department, one custom field's value, words of the title.
 */
export const routingRulesMax = 100;
export const titleWordsMax = 20;
export const titleWordMaxLength = 60;

export const routingRuleIdPattern = /^rr_[0-9a-f]{16}$/;
export const routingRuleIdSchema = z.string().regex(routingRuleIdPattern, "Not a routing rule id");
export const routingRuleIdParamsSchema = z.object({ ruleId: routingRuleIdSchema });

const titleWordSchema = storableText(
  z
    .string({ error: "Title words must be a list of words" })
    .trim()
    .min(1, "Title words: a word cannot be empty")
    .max(titleWordMaxLength, `Title words: a word has at most ${titleWordMaxLength} characters`),
  "Title words",
);

/** What an administrator sends to add or change a rule. */
export const routingRuleInputSchema = z
  .object({
    category: z
      .enum(ticketCategories, { error: `Category must be ${ticketCategories.join(", ")} or empty` })
      .nullable()
      .default(null),
    department: storableText(
      z
        .string({ error: "Department must be text" })
        .trim()
        .min(1, "Department cannot be empty (leave it out for any department)")
        .max(100, "Department must be at most 100 characters"),
      "Department",
    )
      .nullable()
      .default(null),
    /** One custom field and the value it must hold (a choice's value, true or false for a tick box). */
    customField: z
      .object(
        {
          fieldId: customFieldIdSchema,
          value: storableText(
            z
              .string({ error: "Custom field value must be text" })
              .trim()
              .min(1, "Custom field value is required")
              .max(200, "Custom field value must be at most 200 characters"),
            "Custom field value",
          ),
        },
        { error: "Custom field must be a field and a value, or empty" },
      )
      .strict()
      .nullable()
      .default(null),
    /** The rule holds when the title contains any of these words or phrases (whole words, any case). */
    titleWords: z
      .array(titleWordSchema, { error: "Title words must be a list of words" })
      .max(titleWordsMax, `Title words: at most ${titleWordsMax}`)
      .default([])
      // Each once, whatever its case: the first spelling is kept.
      .transform((words) =>
        words.filter(
          (word, index) => words.findIndex((other) => other.toLowerCase() === word.toLowerCase()) === index,
        ),
      ),
    teamId: z
      .string({ error: "Choose the team the rule sends tickets to" })
      .min(1, "Choose the team the rule sends tickets to")
      .pipe(teamIdSchema),
  })
  .strict()
  .refine(
    (rule) =>
      rule.category !== null ||
      rule.department !== null ||
      rule.customField !== null ||
      rule.titleWords.length > 0,
    "A rule needs at least one condition: a category, a department, a custom field or words of the title",
  );
export type RoutingRuleInput = z.input<typeof routingRuleInputSchema>;
export type RoutingRuleInputParsed = z.output<typeof routingRuleInputSchema>;

export const routingRuleSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  category: z.enum(ticketCategories).nullable(),
  department: z.string().nullable(),
  customField: z
    .object({
      fieldId: z.string(),
      /** The field's label and the value as the ticket page shows it (a choice by its label). */
      fieldLabel: z.string(),
      value: z.string(),
      valueLabel: z.string(),
    })
    .nullable(),
  titleWords: z.array(z.string()),
  teamId: z.string(),
  teamName: z.string(),
});
export type RoutingRule = z.infer<typeof routingRuleSchema>;

/** The rules in the order they are tried, and the team that takes a ticket none of them matches. */
export const routingSchema = z.object({
  rules: z.array(routingRuleSchema),
  defaultTeamId: z.string().nullable(),
});
export type Routing = z.infer<typeof routingSchema>;

export const routingOrderInputSchema = z
  .object({
    ruleIds: z
      .array(routingRuleIdSchema, { error: "ruleIds: send every rule's id in the new order" })
      .min(1, "ruleIds: send every rule's id in the new order")
      .max(routingRulesMax),
  })
  .strict();
export type RoutingOrderInput = z.infer<typeof routingOrderInputSchema>;

export const defaultTeamInputSchema = z
  .object({ teamId: teamIdSchema.nullable() }, { error: "Send the default team's id, or null for none" })
  .strict();
export type DefaultTeamInput = z.infer<typeof defaultTeamInputSchema>;
