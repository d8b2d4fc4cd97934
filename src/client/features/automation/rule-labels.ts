import type { MessageDescriptor } from "@lingui/core";
import { msg, t } from "@lingui/core/macro";
import { i18n } from "#client/lib/i18n.ts";
import { categoryLabels, priorityLabel, statusLabel } from "#client/lib/ticket-value-labels.ts";
import type { RuleActions } from "#shared/automation/rule-actions.ts";
import type {
  RuleClock,
  RuleCondition,
  RuleConditionField,
  RuleTrigger,
} from "#shared/automation/rule-conditions.ts";
import type { CustomFieldType } from "#shared/custom-fields/custom-field.schemas.ts";

/**
 * What a rule may name, read by the page from the features that hold them (features do not read each
 * other): the teams, the active technicians, the active custom fields, the shared canned responses and the
 * departments.
 */
export interface RuleChoices {
  teams: readonly { id: string; name: string }[];
  technicians: readonly { id: string; name: string }[];
  /** Active technicians and administrators: whom a rule's notice may name. */
  staff: readonly { id: string; name: string }[];
  customFields: readonly {
    id: string;
    label: string;
    type: CustomFieldType;
    options: readonly { value: string; label: string }[];
  }[];
  cannedResponses: readonly { id: string; title: string }[];
  /** The departments the settings list (a condition may name another). */
  departments: readonly string[];
}

export const triggerLabels: Record<RuleTrigger, MessageDescriptor> = {
  created: msg`When a ticket is created`,
  changed: msg`When a ticket changes`,
  time: msg`On time`,
};

export { priorityLabel, statusLabel };

/** The condition chooser's names, in the order it offers them. */
export const conditionFieldLabels: Record<RuleConditionField, MessageDescriptor> = {
  words: msg`Words`,
  status: msg`Status`,
  priority: msg`Priority`,
  category: msg`Category`,
  team: msg`Team`,
  assignee: msg`Assignee`,
  tag: msg`Tag`,
  department: msg`Department`,
  custom_field: msg`Custom field`,
  on_hold: msg`On hold`,
  changed_by: msg`Changed by`,
  elapsed: msg`Time since`,
};

export const clockLabels: Record<RuleClock, MessageDescriptor> = {
  created: msg`Since created`,
  updated: msg`Since the last activity`,
  on_hold: msg`Since put on hold`,
};

const nameIn = (list: readonly { id: string; name: string }[], id: string) =>
  list.find((item) => item.id === id)?.name ?? id;

const quoted = (phrases: readonly string[]) => {
  const or = t`or`;
  return phrases.map((phrase) => `“${phrase}”`).join(` ${or} `);
};

function elapsedText({ since, hours, business }: Extract<RuleCondition, { field: "elapsed" }>) {
  if (since === "created") {
    return business ? t`${hours} business hours since created` : t`${hours} hours since created`;
  }
  if (since === "updated") {
    return business
      ? t`${hours} business hours since the last activity`
      : t`${hours} hours since the last activity`;
  }
  return business ? t`${hours} business hours on hold` : t`${hours} hours on hold`;
}

/** One condition in words: "Title has “vpn”", "Status is not Closed", "Unassigned". */
export function conditionText(condition: RuleCondition, choices: RuleChoices): string {
  const is = !("op" in condition) || condition.op === "is";
  switch (condition.field) {
    case "status": {
      const status = statusLabel(condition.value);
      return is ? t`Status is ${status}` : t`Status is not ${status}`;
    }
    case "priority": {
      const priority = priorityLabel(condition.value);
      return is ? t`Priority is ${priority}` : t`Priority is not ${priority}`;
    }
    case "category": {
      const category = i18n._(categoryLabels[condition.value]);
      return is ? t`Category is ${category}` : t`Category is not ${category}`;
    }
    case "team": {
      if (condition.value === null) return is ? t`In no team` : t`In a team`;
      const team = nameIn(choices.teams, condition.value);
      return is ? t`Team is ${team}` : t`Team is not ${team}`;
    }
    case "assignee": {
      if (condition.value === null) return is ? t`Unassigned` : t`Assigned`;
      const person = nameIn(choices.technicians, condition.value);
      return is ? t`Assignee is ${person}` : t`Assignee is not ${person}`;
    }
    case "tag": {
      const tag = condition.value;
      return is ? t`Has the tag ${tag}` : t`Has not the tag ${tag}`;
    }
    case "department": {
      const department = condition.value;
      return is ? t`Department is ${department}` : t`Department is not ${department}`;
    }
    case "words": {
      const words = quoted(condition.value);
      return condition.in === "title" ? t`Title has ${words}` : t`Title or description has ${words}`;
    }
    case "custom_field": {
      const field = choices.customFields.find((candidate) => candidate.id === condition.fieldId);
      const label = field?.label ?? condition.fieldId;
      const ticked = condition.value === "true" ? t`Ticked` : t`Not ticked`;
      const value =
        field?.type === "checkbox"
          ? ticked
          : (field?.options.find((option) => option.value === condition.value)?.label ?? condition.value);
      return is ? t`${label} is ${value}` : t`${label} is not ${value}`;
    }
    case "on_hold":
      return condition.value ? t`On hold` : t`Not on hold`;
    case "changed_by":
      return condition.value === "requester" ? t`Changed by the requester` : t`Changed by staff`;
    case "elapsed":
      return elapsedText(condition);
  }
}

/** What a rule does, in words: "Team: Network", "Priority: High", "add tag vpn", "internal note". */
export function actionTexts(actions: RuleActions, choices: RuleChoices): string[] {
  const parts: string[] = [];
  if (actions.teamId !== undefined) {
    const team = actions.teamId === null ? t`none` : nameIn(choices.teams, actions.teamId);
    parts.push(t`Team: ${team}`);
  }
  if (actions.priority) {
    const priority = priorityLabel(actions.priority);
    parts.push(t`Priority: ${priority}`);
  }
  if (actions.status) {
    const status = statusLabel(actions.status);
    parts.push(t`Status: ${status}`);
  }
  if (actions.assigneeId !== undefined) {
    const person =
      actions.assigneeId === null ? t`the queue` : nameIn(choices.technicians, actions.assigneeId);
    parts.push(t`Assign to: ${person}`);
  }
  const added = actions.addTags ?? [];
  if (added.length > 0) {
    const tags = added.join(", ");
    parts.push(added.length === 1 ? t`add tag ${tags}` : t`add tags ${tags}`);
  }
  const removed = actions.removeTags ?? [];
  if (removed.length > 0) {
    const tags = removed.join(", ");
    parts.push(removed.length === 1 ? t`remove tag ${tags}` : t`remove tags ${tags}`);
  }
  if (actions.note) parts.push(t`internal note`);
  if (actions.replyCannedResponseId) {
    const id = actions.replyCannedResponseId;
    const title = choices.cannedResponses.find((response) => response.id === id)?.title ?? id;
    parts.push(t`reply with “${title}”`);
  }
  if (actions.notify) {
    const names = [
      ...actions.notify.userIds.map((id) => nameIn(choices.staff, id)),
      ...actions.notify.teamIds.map((id) => nameIn(choices.teams, id)),
    ].join(", ");
    parts.push(t`notify ${names}`);
  }
  return parts;
}

/** A rule in one line: "Title has “vpn” · Status is Open → Team: Network, Priority: High, add tag vpn". */
export function ruleSummary(
  rule: { conditions: readonly RuleCondition[]; actions: RuleActions },
  choices: RuleChoices,
): { conditions: string; actions: string } {
  const conditions =
    rule.conditions.length === 0
      ? t`Every ticket`
      : rule.conditions.map((condition) => conditionText(condition, choices)).join(" · ");
  return { conditions, actions: actionTexts(rule.actions, choices).join(", ") };
}
