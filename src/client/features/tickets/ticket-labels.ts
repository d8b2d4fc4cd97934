import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { categoryLabels, priorityLabels, statusLabels } from "#client/lib/ticket-value-labels.ts";

export { priorityLabels, statusLabels };

import { i18n } from "#client/lib/i18n.ts";
import type { TicketCategory, TicketPriority } from "#shared/tickets/ticket.schemas.ts";
import type { Rating } from "#shared/tickets/ticket-activity.schemas.ts";
import type { EditableTicketField } from "#shared/tickets/ticket-edit.ts";

/** The edit form's fields as an "edited" entry names them (#shared/tickets/ticket-edit.ts). */
export const fieldLabels: Record<EditableTicketField, MessageDescriptor> = {
  title: msg`Title`,
  description: msg`Description`,
  category: msg`Category`,
  priority: msg`Priority`,
  department: msg`Department`,
  floor: msg`Floor`,
  officeNumber: msg`Office Number`,
};

/** A changed field's old or new value as shown: a category or priority in the active language. */
export function changedValueText(field: string, value: string): string {
  if (field === "category" && value in categoryLabels) return i18n._(categoryLabels[value as TicketCategory]);
  if (field === "priority" && value in priorityLabels) return i18n._(priorityLabels[value as TicketPriority]);
  return value;
}

/** The rating labels (ratingLabels in #shared/tickets/ticket-activity.schemas.ts). */
export const ratingLabels: Record<Rating, MessageDescriptor> = {
  1: msg`Very Dissatisfied`,
  2: msg`Dissatisfied`,
  3: msg`Neutral`,
  4: msg`Satisfied`,
  5: msg`Very Satisfied`,
};
