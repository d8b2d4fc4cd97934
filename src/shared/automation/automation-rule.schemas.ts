import { z } from "zod";
import { tagsOneWay, ticketChangeFields } from "#shared/macros/macro.schemas.ts";
import { teamIdSchema } from "#shared/teams/team.schemas.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { personIdSchema } from "#shared/users/user.schemas.ts";
import { type RuleActions, ruleNotifyMax } from "./rule-actions.ts";
import { ruleConditionsSchemaFor, ruleText } from "./rule-conditions.schemas.ts";
import { type RuleCondition, type RuleTrigger, ruleTriggers } from "./rule-conditions.ts";

/** Automation rules (decision 076). */
export const automationRulesMax = 100;
export const ruleNameMaxLength = 100;
/** How many open tickets "Try" lists by name (it counts them all). */
export const ruleTrySampleSize = 20;

export const automationRuleIdPattern = /^ar_[0-9a-f]{16}$/;
export const automationRuleIdSchema = z.string().regex(automationRuleIdPattern, "Not an automation rule id");
export const automationRuleIdParamsSchema = z.object({ automationRuleId: automationRuleIdSchema });

const notifySchema = z
  .object(
    {
      userIds: z
        .array(personIdSchema("Notify", "Notify: choose staff members"), {
          error: "Notify: choose staff members",
        })
        .max(ruleNotifyMax, `Notify: at most ${ruleNotifyMax} people`)
        .default([]),
      teamIds: z
        .array(teamIdSchema, { error: "Notify: choose teams" })
        .max(ruleNotifyMax, `Notify: at most ${ruleNotifyMax} teams`)
        .default([]),
    },
    { error: "Notify must name people or teams" },
  )
  .strict()
  .transform(({ userIds, teamIds }) => ({ userIds: [...new Set(userIds)], teamIds: [...new Set(teamIds)] }))
  .refine(({ userIds, teamIds }) => userIds.length + teamIds.length > 0, {
    message: "Notify: choose at least one person or team",
  });

export const ruleActionsSchema = z
  .object(
    {
      ...ticketChangeFields,
      assigneeId: personIdSchema("Assign to", "Assign to must be a technician's id or null")
        .nullable()
        .optional(),
      note: ruleText("Internal note", commentMaxLength).optional(),
      replyCannedResponseId: z.string({ error: "Choose a shared canned response" }).min(1).max(64).optional(),
      notify: notifySchema.optional(),
    },
    { error: "Actions must be an object" },
  )
  .strict()
  .refine((actions) => Object.values(actions).some((value) => value !== undefined), {
    message: "A rule needs at least one action",
  })
  .refine(...tagsOneWay) satisfies z.ZodType<RuleActions, unknown>;

/**
 * A rule's conditions as sent (a list), checked for its trigger once the trigger is known: the input's
 * transform, and Try's.
 */
function conditionsChecked<T extends { trigger: RuleTrigger; conditions: unknown[] }>(
  input: T,
  ctx: z.RefinementCtx,
): Omit<T, "conditions"> & { conditions: RuleCondition[] } {
  const conditions = ruleConditionsSchemaFor(input.trigger).safeParse(input.conditions);
  if (conditions.success) return { ...input, conditions: conditions.data };
  for (const issue of conditions.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: ["conditions", ...issue.path] });
  }
  return z.NEVER;
}

const triggerSchema = z.enum(ruleTriggers, {
  error: "A rule runs when a ticket is created, changed, or on time",
});
const conditionListSchema = z.array(z.unknown(), { error: "Conditions must be a list" }).default([]);

/** What an administrator sends to add or change a rule; its conditions are checked for its trigger. */
export const automationRuleInputSchema = z
  .object({
    name: ruleText("Name", ruleNameMaxLength),
    trigger: triggerSchema,
    conditions: conditionListSchema,
    actions: ruleActionsSchema,
    enabled: z.boolean({ error: "Enabled is yes or no" }).default(false),
  })
  .transform(conditionsChecked);
export type AutomationRuleInput = z.input<typeof automationRuleInputSchema>;
export type AutomationRuleInputParsed = z.output<typeof automationRuleInputSchema>;

/** What "Try" is sent: the trigger and the conditions as the form has them now. */
export const automationRuleTryInputSchema = z
  .object({ trigger: triggerSchema, conditions: conditionListSchema })
  .transform(conditionsChecked);

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
