import type { AutomationRule } from "#shared/automation/automation-rule.schemas.ts";
import type { RuleActions } from "#shared/automation/rule-actions.ts";
import type {
  Comparison,
  RuleClock,
  RuleCondition,
  RuleConditionField,
  RuleTrigger,
} from "#shared/automation/rule-conditions.ts";
import { ticketCategories, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import type { RuleChoices } from "./rule-labels.ts";

/**
 * One condition row as the form holds it: every part any field may need, as the controls hold it (text).
 * `toCondition` makes the condition the server reads of it; the shared schema checks the rest.
 */
export interface ConditionDraft {
  /** The row's React key: stays while its field and values change. */
  key: number;
  field: RuleConditionField;
  op: Comparison;
  /** The value of a select or a text box; `none` for "no team" and "unassigned". */
  value: string;
  /** Words: the phrases as typed, one a line or parted by commas. */
  phrases: string;
  in: "title" | "title_or_description";
  fieldId: string;
  since: RuleClock;
  hours: string;
  business: boolean;
}

/** The select value for null: in no team, unassigned. */
export const none = "none";

const conditionFields: readonly RuleConditionField[] = [
  "words",
  "status",
  "priority",
  "category",
  "team",
  "assignee",
  "tag",
  "department",
  "custom_field",
  "on_hold",
  "changed_by",
  "elapsed",
];

/** The fields a trigger's conditions may read: "changed by" for change rules, "time since" for time rules. */
export const conditionFieldsFor = (trigger: RuleTrigger) =>
  conditionFields.filter(
    (field) =>
      (field !== "changed_by" || trigger === "changed") && (field !== "elapsed" || trigger === "time"),
  );

let nextKey = 1;
const blank = (): Omit<ConditionDraft, "field" | "value"> => ({
  key: nextKey++,
  op: "is",
  phrases: "",
  in: "title",
  fieldId: "",
  since: "created",
  hours: "",
  business: true,
});

/** The value a row starts with when its field is chosen: the first choice, or nothing typed yet. */
function firstValue(field: RuleConditionField, choices: RuleChoices): string {
  switch (field) {
    case "status":
      return ticketStatuses[0];
    case "priority":
      return ticketPriorities[ticketPriorities.length - 1]!;
    case "category":
      return ticketCategories[0];
    case "team":
      return choices.teams[0]?.id ?? none;
    case "assignee":
      return none;
    case "on_hold":
      return "true";
    case "changed_by":
      return "requester";
    default:
      return "";
  }
}

/** A new row for `field`; the key kept when only the field of a row changes. */
export function draftFor(field: RuleConditionField, choices: RuleChoices, key?: number): ConditionDraft {
  const draft = { ...blank(), field, value: firstValue(field, choices) };
  if (field === "custom_field") draft.fieldId = choices.customFields[0]?.id ?? "";
  return key === undefined ? draft : { ...draft, key };
}

/** A saved condition as a row. */
export function draftOf(condition: RuleCondition): ConditionDraft {
  const draft: ConditionDraft = { ...blank(), field: condition.field, value: "" };
  switch (condition.field) {
    case "words":
      return { ...draft, phrases: condition.value.join("\n"), in: condition.in };
    case "custom_field":
      return { ...draft, op: condition.op, fieldId: condition.fieldId, value: condition.value };
    case "on_hold":
      return { ...draft, value: String(condition.value) };
    case "changed_by":
      return { ...draft, value: condition.value };
    case "elapsed":
      return {
        ...draft,
        since: condition.since,
        hours: String(condition.hours),
        business: condition.business,
      };
    case "team":
    case "assignee":
      return { ...draft, op: condition.op, value: condition.value ?? none };
    default:
      return { ...draft, op: condition.op, value: condition.value };
  }
}

/** "vpn, wi-fi\nprinter" → ["vpn", "wi-fi", "printer"]: lines or commas part the phrases. */
export const phrasesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((phrase) => phrase.trim())
    .filter(Boolean);

/** What the server reads of a row (the shared schema checks it: an empty phrase list, hours not a number). */
export function toCondition(draft: ConditionDraft): unknown {
  const { field, op, value } = draft;
  switch (field) {
    case "words":
      return { field, in: draft.in, value: phrasesOf(draft.phrases) };
    case "custom_field":
      return { field, fieldId: draft.fieldId, op, value };
    case "on_hold":
      return { field, value: value === "true" };
    case "changed_by":
      return { field, value };
    case "elapsed":
      return {
        field,
        since: draft.since,
        hours: draft.hours.trim() === "" ? Number.NaN : Number(draft.hours),
        business: draft.business,
      };
    case "team":
    case "assignee":
      return { field, op, value: value === none ? null : value };
    default:
      return { field, op, value };
  }
}

/** The form's whole state. Actions are held as the server reads them; each action's editor owns its part. */
export interface RuleDraft {
  name: string;
  trigger: RuleTrigger;
  conditions: ConditionDraft[];
  actions: RuleActions;
  enabled: boolean;
}

export function ruleDraftOf(rule: AutomationRule | null): RuleDraft {
  return {
    name: rule?.name ?? "",
    trigger: rule?.trigger ?? "created",
    conditions: (rule?.conditions ?? []).map(draftOf),
    actions: rule?.actions ?? {},
    // Decision 076: a new rule starts off, tried before it acts.
    enabled: rule?.enabled ?? false,
  };
}

/** What POST and PUT send. */
export const ruleInputOf = (draft: RuleDraft) => ({
  name: draft.name,
  trigger: draft.trigger,
  conditions: draft.conditions.map(toCondition),
  actions: draft.actions,
  enabled: draft.enabled,
});

/**
 * Issues (the shared schema's or the server's) by where the form shows them: "name", "conditions.0" (a
 * row, whatever part of it), "conditions" (the list), "actions.teamId", "actions" (none at all), and ""
 * for the rest. The first issue of each place wins.
 */
export function errorsByPlace(
  issues: readonly { path: readonly (string | number | symbol)[]; message: string }[],
) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const [head, next] = issue.path.map(String);
    const place =
      head === "name" || head === "trigger" || head === "enabled"
        ? head
        : head === "conditions" || head === "actions"
          ? next === undefined
            ? head
            : `${head}.${next}`
          : "";
    errors[place] ??= issue.message;
  }
  return errors;
}

export type FormErrors = Record<string, string>;
