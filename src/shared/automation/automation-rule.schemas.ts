import { z } from "zod";
import { tagSchema } from "#shared/tags/tag.schemas.ts";
import { teamIdSchema } from "#shared/teams/team.schemas.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { changeableStatuses } from "#shared/tickets/ticket-status.ts";
import type { RuleActions } from "./rule-actions.ts";
import { ruleConditionsSchemaFor } from "./rule-conditions.schemas.ts";
import { type RuleCondition, ruleTriggers } from "./rule-conditions.ts";

/** Automation rules (decision 076). */
export const automationRulesMax = 100;
export const ruleNameMaxLength = 100;
/** How many open tickets "Try" lists by name (it counts them all). */
export const ruleTrySampleSize = 20;

export const automationRuleIdPattern = /^ar_[0-9a-f]{16}$/;
export const automationRuleIdSchema = z.string().regex(automationRuleIdPattern, "Not an automation rule id");
export const automationRuleIdParamsSchema = z.object({ automationRuleId: automationRuleIdSchema });

const personIdSchema = z.string({ error: "A person's id must be text" }).min(1).max(64);

const text = (label: string, max: number) =>
  storableText(
    z
      .string({ error: `${label} must be text` })
      .trim()
      .min(1, `${label} cannot be empty`)
      .max(max, `${label} must be at most ${max} characters`),
    label,
  );

const tagsSchema = (label: string) =>
  z
    .array(tagSchema, { error: `${label} must be a list of tags` })
    .max(20, `${label}: at most 20`)
    .optional();

export const ruleActionsSchema = z
  .object(
    {
      status: z
        .enum(changeableStatuses, { error: "Status must be In Progress, Resolved or Closed" })
        .optional(),
      priority: z
        .enum(ticketPriorities, { error: `Priority must be ${ticketPriorities.join(", ")}` })
        .optional(),
      teamId: teamIdSchema.nullable().optional(),
      assigneeId: personIdSchema.nullable().optional(),
      addTags: tagsSchema("Tags to add"),
      removeTags: tagsSchema("Tags to remove"),
      note: text("Internal note", commentMaxLength).optional(),
      replyCannedResponseId: z.string({ error: "Choose a shared canned response" }).min(1).max(64).optional(),
    },
    { error: "Actions must be an object" },
  )
  .strict()
  .refine((actions) => Object.values(actions).some((value) => value !== undefined), {
    message: "A rule needs at least one action",
  })
  .refine(({ addTags = [], removeTags = [] }) => !addTags.some((tag) => removeTags.includes(tag)), {
    message: "A tag cannot be both added and removed",
    path: ["removeTags"],
  }) satisfies z.ZodType<RuleActions, unknown>;

/** What an administrator sends to add or change a rule; its conditions are checked for its trigger. */
export const automationRuleInputSchema = z
  .object({
    name: text("Name", ruleNameMaxLength),
    trigger: z.enum(ruleTriggers, { error: "A rule runs when a ticket is created, changed, or on time" }),
    conditions: z.array(z.unknown(), { error: "Conditions must be a list" }).default([]),
    actions: ruleActionsSchema,
    enabled: z.boolean({ error: "Enabled is yes or no" }).default(false),
  })
  .transform((input, ctx) => {
    const conditions = ruleConditionsSchemaFor(input.trigger).safeParse(input.conditions);
    if (!conditions.success) {
      for (const issue of conditions.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: ["conditions", ...issue.path] });
      }
      return z.NEVER;
    }
    return { ...input, conditions: conditions.data };
  });
export type AutomationRuleInput = z.input<typeof automationRuleInputSchema>;
export type AutomationRuleInputParsed = z.output<typeof automationRuleInputSchema>;

/** Switching a rule on or off, without sending the rest. */
export const automationRuleEnabledInputSchema = z.object({
  enabled: z.boolean({ error: "Enabled is yes or no" }),
});

export const automationRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  enabled: z.boolean(),
  trigger: z.enum(ruleTriggers),
  conditions: z.array(z.custom<RuleCondition>()),
  actions: z.custom<RuleActions>(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AutomationRule = z.infer<typeof automationRuleSchema>;

export const automationRuleListSchema = z.object({ rules: z.array(automationRuleSchema) });
export type AutomationRuleList = z.infer<typeof automationRuleListSchema>;

/** The whole order, first to last (Move up / Move down send it). */
export const automationRuleOrderInputSchema = z.object({
  ruleIds: z
    .array(automationRuleIdSchema, { error: "Send the rules' ids in their new order" })
    .max(automationRulesMax),
});

/** "Try": how many of the open tickets the rule's conditions hold for now, and the newest of them. */
export const automationRuleTrySchema = z.object({
  matched: z.number().int(),
  checked: z.number().int(),
  tickets: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(ticketStatuses) })),
});
export type AutomationRuleTry = z.infer<typeof automationRuleTrySchema>;
