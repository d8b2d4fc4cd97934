import { t } from "@lingui/core/macro";
import { priorityLabel, statusLabel } from "#client/lib/ticket-value-labels.ts";
import type { MacroActions, MacroStep } from "#shared/macros/macro.schemas.ts";
import type { TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

export { priorityLabel, statusLabel };

const previewLength = 160;
const shorten = (text: string) =>
  text.length > previewLength ? `${text.slice(0, previewLength).trimEnd()}…` : text;

const tagChanges = (added: readonly string[], removed: readonly string[]) =>
  [...added.map((tag) => `+ ${tag}`), ...removed.map((tag) => `− ${tag}`)].join(", ");

/** What one step does to the ticket, e.g. "Status: In Progress → Resolved", "Team: none → Network". */
export function stepText(step: MacroStep): string {
  const none = t`none`;
  const queue = t`the queue`;
  switch (step.kind) {
    case "hold_off":
      return t`Take it off hold`;
    case "hold_on":
      return step.to ? t`Put it on hold with the public reply: ${shorten(step.to)}` : t`Put it on hold`;
    case "assignee": {
      const from = step.from ?? queue;
      const to = step.to ?? queue;
      return t`Assignee: ${from} → ${to}`;
    }
    case "status": {
      const from = step.from ? statusLabel(step.from as TicketStatus) : none;
      const to = step.to ? statusLabel(step.to as TicketStatus) : none;
      return t`Status: ${from} → ${to}`;
    }
    case "priority": {
      const from = step.from ? priorityLabel(step.from as TicketPriority) : none;
      const to = step.to ? priorityLabel(step.to as TicketPriority) : none;
      return t`Priority: ${from} → ${to}`;
    }
    case "team": {
      const from = step.from ?? none;
      const to = step.to ?? none;
      return t`Team: ${from} → ${to}`;
    }
    case "tags": {
      const changes = tagChanges(step.tagsAdded, step.tagsRemoved);
      return changes ? t`Tags: ${changes}` : t`Tags: no change`;
    }
    case "reply": {
      const text = shorten(step.to ?? "");
      return step.visibility === "internal" ? t`Internal note: ${text}` : t`Public reply: ${text}`;
    }
  }
}

/**
 * What a macro does, without a ticket: "Status Resolved · Team Network · Tags + vpn · Public reply".
 * `teamName` and `personName` name the ids it holds (the id itself when unknown).
 */
export function actionsSummary(
  { actions, body, replyVisibility }: { actions: MacroActions; body: string; replyVisibility: string },
  { teamName, personName }: { teamName: (id: string) => string; personName: (id: string) => string },
): string[] {
  const parts: string[] = [];
  if (actions.hold === "off") parts.push(t`Off hold`);
  if (actions.assigneeId !== undefined) {
    const who =
      actions.assigneeId === null
        ? t`the queue`
        : actions.assigneeId === "me"
          ? t`whoever applies it`
          : personName(actions.assigneeId);
    parts.push(t`Assign to ${who}`);
  }
  if (actions.status) {
    const status = statusLabel(actions.status);
    parts.push(t`Status ${status}`);
  }
  if (actions.priority) {
    const priority = priorityLabel(actions.priority);
    parts.push(t`Priority ${priority}`);
  }
  if (actions.teamId !== undefined) {
    const team = actions.teamId === null ? t`none` : teamName(actions.teamId);
    parts.push(t`Team ${team}`);
  }
  const tags = tagChanges(actions.addTags ?? [], actions.removeTags ?? []);
  if (tags) parts.push(t`Tags ${tags}`);
  if (actions.hold === "on") parts.push(t`On hold`);
  if (body) parts.push(replyVisibility === "internal" ? t`Internal note` : t`Public reply`);
  return parts;
}
