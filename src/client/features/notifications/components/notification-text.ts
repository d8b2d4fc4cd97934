import type { MessageDescriptor } from "@lingui/core";
import { msg, plural, t } from "@lingui/core/macro";
import { formatDateTime } from "#client/lib/format.ts";
import { i18n } from "#client/lib/i18n.ts";
import { statusLabels } from "#client/lib/ticket-value-labels.ts";
import type { Notification, NotificationParams } from "#shared/notifications/notification.schemas.ts";
import { shortTicketTitle } from "#shared/notifications/notification-text.ts";
import type { SlaTarget } from "#shared/service-levels/sla-escalation.ts";

// A notification in the reader's language (decision 059): worded here from what the server stored
// (`params`), dates in the app's own format. The server's English `message` says the same for e-mails and
// the API, and is what a notification without params (older ones, test ones) shows.
//
// A status is named as the ticket screens name it (lib/ticket-value-labels.ts); the field labels below are
// the ticket screens' own texts (features/tickets/ticket-labels.ts), which the catalogues hold once.

const fieldLabels: Record<string, MessageDescriptor> = {
  title: msg`Title`,
  category: msg`Category`,
  priority: msg`Priority`,
  department: msg`Department`,
  floor: msg`Floor`,
  officeNumber: msg`Office Number`,
};

/** A category or a priority as the screens show it; other values are data, shown as they are. */
const valueLabels: Record<string, Record<string, MessageDescriptor>> = {
  category: { Hardware: msg`Hardware`, Software: msg`Software`, Network: msg`Network`, Other: msg`Other` },
  priority: { Low: msg`Low`, Medium: msg`Medium`, High: msg`High` },
};

const labelOf = (labels: Record<string, MessageDescriptor>, value: string) => {
  const label = labels[value];
  return label ? i18n._(label) : value;
};

const stars = (rating: number) => "★".repeat(rating) + "☆".repeat(5 - rating);

type Change = Extract<NotificationParams, { kind: "edited" }>["changes"][number];

function changeText(change: Change): string {
  if (change.field === "description") return t`Description edited`;
  const label = change.label ?? labelOf(fieldLabels, change.field);
  const values = valueLabels[change.field] ?? {};
  const from = labelOf(values, change.from ?? "");
  const to = labelOf(values, change.to ?? "");
  return `${label}: ${from} → ${to}`;
}

function dueText(target: SlaTarget, title: string, dueAt: string | null): string {
  const isFirstResponse = target === "first_response";
  if (!dueAt)
    return isFirstResponse
      ? t`First response due soon on ticket "${title}"`
      : t`Resolution due soon on ticket "${title}"`;
  const date = formatDateTime(dueAt);
  return isFirstResponse
    ? t`First response due ${date} on ticket "${title}"`
    : t`Resolution due ${date} on ticket "${title}"`;
}

/** Decision 080: to every administrator; the URL and the error are data, shown as they are. */
function webhookDisabledText({
  url,
  failures,
  error,
}: Extract<NotificationParams, { kind: "webhook_disabled" }>): string {
  const off = plural(failures, {
    one: `The webhook ${url} was switched off after # delivery failed.`,
    other: `The webhook ${url} was switched off after # deliveries failed in a row.`,
  });
  return error ? `${off} ${t`Last error: ${error}`}` : off;
}

function paramsText(params: NotificationParams): string {
  if (params.kind === "webhook_disabled") return webhookDisabledText(params);
  const title = shortTicketTitle(params.title);
  const actor = "actor" in params ? (params.actor ?? t`Someone`) : "";
  switch (params.kind) {
    case "ticket_created": {
      const { department, floor } = params;
      return t`NEW TICKET CREATED: ${title} | Department: ${department} | Floor: ${floor}`;
    }
    case "commented": {
      const { preview } = params;
      return t`${actor} commented on ticket "${title}": ${preview}`;
    }
    case "internal_note": {
      const { preview } = params;
      return t`${actor} added an internal note on ticket "${title}": ${preview}`;
    }
    case "mentioned": {
      const { preview } = params;
      return params.isInternal
        ? t`${actor} mentioned you in an internal note on ticket "${title}": ${preview}`
        : t`${actor} mentioned you on ticket "${title}": ${preview}`;
    }
    case "status_changed": {
      const from = labelOf(statusLabels, params.from);
      const to = labelOf(statusLabels, params.to);
      const change = t`${actor} changed the status of ticket "${title}" from ${from} to ${to}`;
      if (!params.autoCloseAt) return change;
      const date = formatDateTime(params.autoCloseAt);
      return `${change}. ${t`It will close automatically on ${date} unless you reply or rate it.`}`;
    }
    case "assigned_to_self": {
      const status = labelOf(statusLabels, "In Progress");
      return t`${actor} assigned ticket "${title}" to themselves; it is now ${status}`;
    }
    case "reassigned": {
      const assignee = params.assignee ?? t`someone`;
      if (!params.status) return t`${actor} assigned ticket "${title}" to ${assignee}`;
      const status = labelOf(statusLabels, params.status);
      return t`${actor} assigned ticket "${title}" to ${assignee}; it is now ${status}`;
    }
    case "auto_assigned": {
      const assignee = params.assignee ?? t`someone`;
      const team = params.team;
      const text =
        params.mode === "least_open"
          ? team
            ? t`Ticket "${title}" was assigned to ${assignee}, the ${team} team's member with the fewest open tickets`
            : t`Ticket "${title}" was assigned to ${assignee}, a team's member with the fewest open tickets`
          : team
            ? t`Ticket "${title}" was assigned to ${assignee} by the ${team} team's round robin`
            : t`Ticket "${title}" was assigned to ${assignee} by a team's round robin`;
      if (!params.status) return text;
      const status = labelOf(statusLabels, params.status);
      return t`${text}; it is now ${status}`;
    }
    case "returned_to_queue": {
      if (!params.status) return t`${actor} returned ticket "${title}" to the queue`;
      const status = labelOf(statusLabels, params.status);
      return t`${actor} returned ticket "${title}" to the queue; it is now ${status}`;
    }
    case "edited": {
      const changes = params.changes.map(changeText).join("; ");
      return t`${actor} edited ticket "${title}": ${changes}`;
    }
    case "feedback": {
      const { rating, comment } = params;
      const given = stars(rating);
      return comment
        ? t`${actor} rated ticket "${title}" ${given} ${rating}/5: ${comment}`
        : t`${actor} rated ticket "${title}" ${given} ${rating}/5`;
    }
    case "sla_warning":
      return dueText(params.target, title, params.dueAt);
    case "sla_breached":
      return params.target === "first_response"
        ? t`First response target missed on ticket "${title}"`
        : t`Resolution target missed on ticket "${title}"`;
    case "team_changed": {
      const { team } = params;
      return t`${actor} moved ticket "${title}" to team ${team}`;
    }
    case "merged": {
      // Decision 074: told to the merged duplicate's requester.
      const { target } = params;
      return t`${actor} merged ticket "${title}" into ticket ${target}; it is now Closed and the conversation continues there`;
    }
    case "rule_notice": {
      // Decision 076: an automation rule tells the people and teams it names.
      const { rule } = params;
      return t`The automation rule “${rule}” asks you to look at ticket "${title}"`;
    }
    case "ticket_linked": {
      // Sent to nobody; worded for completeness.
      const { other } = params;
      return params.change === "linked"
        ? t`${actor} linked ticket "${title}" to ticket ${other}`
        : params.change === "unlinked"
          ? t`${actor} removed the link between ticket "${title}" and ticket ${other}`
          : t`${actor} merged ticket ${other} into ticket "${title}"`;
    }
    case "tags_changed": {
      // Decision 071: sent to nobody; worded for completeness.
      const tags = [...params.added, ...params.removed].join(", ");
      return t`${actor} changed the tags of ticket "${title}": ${tags}`;
    }
    case "auto_closed": {
      const days = params.idleDays;
      return plural(days, {
        one: `Ticket "${title}" was closed automatically after # day without activity`,
        other: `Ticket "${title}" was closed automatically after # days without activity`,
      });
    }
    case "hold_lifted":
      return params.reason === "reply"
        ? t`${actor} replied: ticket "${title}" is no longer on hold`
        : t`Ticket "${title}" is no longer on hold: its date to lift the hold has come`;
    case "incident_changed":
      // Decision 077: sent to nobody; worded for completeness.
      return params.change === "declared"
        ? t`${actor} declared ticket "${title}" a major incident`
        : t`${actor} ended the major incident on ticket "${title}"`;
    case "known_issue": {
      // Decision 077: to the people who follow a known issue; `title` is its public headline.
      const { preview } = params;
      return params.resolved
        ? t`Known issue resolved: ${title}: ${preview}`
        : t`Update on the known issue ${title}: ${preview}`;
    }
    case "auto_resolved": {
      const days = params.businessDays;
      const resolved = plural(days, {
        one: `Ticket "${title}" was resolved automatically after # business day waiting for the requester's reply`,
        other: `Ticket "${title}" was resolved automatically after # business days waiting for the requester's reply`,
      });
      if (!params.autoCloseAt) return resolved;
      const date = formatDateTime(params.autoCloseAt);
      return `${resolved}. ${t`It will close automatically on ${date} unless you reply or rate it.`}`;
    }
  }
}

/** What a notification says, in the active language; its English message when it has no params. */
export function notificationText(notification: Pick<Notification, "message" | "params">): string {
  return notification.params ? paramsText(notification.params) : notification.message;
}
