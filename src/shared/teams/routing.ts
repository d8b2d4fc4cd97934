// Zod-free: the rule the server applies to a new ticket, and the admin page's "which team would take it".
import type { CustomFieldValue, CustomFieldValues } from "#shared/custom-fields/custom-field-values.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";

/** What of a new ticket routing looks at. */
export interface RoutableTicket {
  title: string;
  category: TicketCategory;
  department: string;
  /** The ticket's custom field values, by field id (the create form's, as stored). */
  customFields: CustomFieldValues;
}

/** A rule's conditions and where it sends a ticket; a condition left empty (null, no words) holds for all. */
export interface RoutingConditions {
  category: TicketCategory | null;
  department: string | null;
  customField: { fieldId: string; value: string } | null;
  titleWords: readonly string[];
  teamId: string;
}

/** Letters and digits in any script, lower case: "Wi-Fi down!" → ["wi", "fi", "down"]. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether the title holds the phrase as whole words in a row, whatever the case or punctuation: "wi-fi"
 * is found in "No Wi-Fi on floor 3", "net" is not found in "Network down".
 */
export function titleHasPhrase(title: string, phrase: string): boolean {
  const words = wordsOf(title);
  const wanted = wordsOf(phrase);
  if (wanted.length === 0) return false;
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (wanted.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/**
 * Whether a ticket's value of a field is the rule's: one of a multiple choice's, a tick box's true or
 * false, the same number, or the same text whatever its case (a choice's value, a date, typed text).
 */
export function customFieldValueMatches(wanted: string, value: CustomFieldValue | undefined): boolean {
  if (value === undefined) return false;
  if (Array.isArray(value)) return value.includes(wanted);
  if (typeof value === "boolean") return String(value) === wanted;
  if (typeof value === "number") return wanted.trim() !== "" && value === Number(wanted);
  return value.trim().toLowerCase() === wanted.trim().toLowerCase();
}

/** Every condition the rule has holds for the ticket (a department compared whatever its case). */
export function ruleMatches(rule: RoutingConditions, ticket: RoutableTicket): boolean {
  if (rule.category !== null && rule.category !== ticket.category) return false;
  if (
    rule.department !== null &&
    rule.department.trim().toLowerCase() !== ticket.department.trim().toLowerCase()
  ) {
    return false;
  }
  if (
    rule.customField !== null &&
    !customFieldValueMatches(rule.customField.value, ticket.customFields[rule.customField.fieldId])
  ) {
    return false;
  }
  if (rule.titleWords.length > 0 && !rule.titleWords.some((phrase) => titleHasPhrase(ticket.title, phrase))) {
    return false;
  }
  return true;
}

/** The team a new ticket goes to: the first rule that matches, else the default team, else none (null). */
export function routeTicket(
  rules: readonly RoutingConditions[],
  defaultTeamId: string | null,
  ticket: RoutableTicket,
): string | null {
  return rules.find((rule) => ruleMatches(rule, ticket))?.teamId ?? defaultTeamId;
}
