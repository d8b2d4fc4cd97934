import type { Db } from "#server/db/client.ts";
import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import {
  findCommentById,
  findFeedback,
  findTeamName,
} from "#server/features/ticket-records/ticket-activity.queries.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import type { NotificationParams } from "#shared/notifications/notification.schemas.ts";
import { isTechnicianAlert } from "#shared/notifications/notification-alerts.ts";
import { shortTicketTitle } from "#shared/notifications/notification-text.ts";
import { autoClosedText } from "#shared/service-levels/auto-close.schemas.ts";
import { autoResolvedText } from "#shared/service-levels/on-hold.schemas.ts";
import { slaEventText } from "#shared/service-levels/sla-escalation.ts";
import { ticketChangeLabel } from "#shared/tickets/ticket-edit.ts";
import type { TicketEventInput } from "./ticket-event-input.ts";

// What each ticket event's notification says (decision 059): the English message, and the params the app
// words in the reader's language.

const commentPreviewLength = 100;
const preview = (raw: string) => {
  const text = mentionsToPlainText(raw);
  return text.length > commentPreviewLength ? `${text.slice(0, commentPreviewLength)}…` : text;
};

/** A notification's English text and what it is made of, for the app to word in the reader's language. */
export interface NotificationText {
  message: string;
  params: NotificationParams;
}

/**
 * How a message names its ticket: by its title, quoted and shortened (decision 059). The technician alert
 * listens to the message too: a title that itself says "ticket created" or "commented on ticket"
 * would sound it for a mere status change, so such a message names the ticket by its id instead (the app
 * still shows the title, from the params).
 */
const ticketName = (ticket: Pick<TicketWithNames, "id" | "title">) =>
  isTechnicianAlert({ type: "test", message: ticket.title })
    ? ticket.id
    : `"${shortTicketTitle(ticket.title)}"`;

/** What a mentioned person reads instead of the comment's or note's usual notification. */
export async function mentionTextOf(
  tx: Db,
  event: TicketEventInput,
  ticket: TicketWithNames,
): Promise<NotificationText> {
  const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
  const actor = comment?.authorName ?? null;
  const text = preview(comment?.comment.message ?? "");
  const isInternal = event.type === "internal_note";
  const where = `${isInternal ? "in an internal note " : ""}on ticket ${ticketName(ticket)}`;
  return {
    message: `${actor ?? "Someone"} mentioned you ${where}: ${text}`,
    params: { kind: "mentioned", title: ticket.title, actor, preview: text, isInternal },
  };
}
export const stars = (rating: number) => "★".repeat(rating) + "☆".repeat(5 - rating);

/** The wording of docs/features.md; "ticket created" is also what the technician alert listens for. */
const createdTextOf = ({ title, department, floor }: TicketWithNames): NotificationText => ({
  message: `NEW TICKET CREATED: ${title} | Department: ${department} | Floor: ${floor}`,
  params: { kind: "ticket_created", title, department, floor },
});

export async function textOf(
  tx: Db,
  event: TicketEventInput,
  ticket: TicketWithNames,
): Promise<NotificationText> {
  const actorName = async () =>
    (event.actorId ? (await findUserById(tx, event.actorId))?.name : undefined) ?? null;
  const { title } = ticket;
  const name = ticketName(ticket);
  switch (event.type) {
    case "created":
      return createdTextOf(ticket);
    case "commented":
    case "internal_note": {
      const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
      const actor = comment?.authorName ?? null;
      const text = preview(comment?.comment.message ?? "");
      const what = event.type === "commented" ? "commented on" : "added an internal note on";
      return {
        message: `${actor ?? "Someone"} ${what} ticket ${name}: ${text}`,
        params: { kind: event.type, title, actor, preview: text },
      };
    }
    case "status_changed": {
      const actor = await actorName();
      const from = event.fromStatus ?? ticket.status;
      const to = event.toStatus ?? ticket.status;
      return {
        message: `${actor ?? "Someone"} changed the status of ticket ${name} from ${from} to ${to}`,
        params: { kind: "status_changed", title, actor, from, to },
      };
    }
    case "assigned": {
      const actor = await actorName();
      return {
        message: `${actor ?? "Someone"} assigned ticket ${name} to themselves; it is now In Progress`,
        params: { kind: "assigned_to_self", title, actor },
      };
    }
    case "reassigned": {
      const actor = await actorName();
      const status = event.toStatus && event.fromStatus !== event.toStatus ? event.toStatus : null;
      const statusChange = status ? `; it is now ${status}` : "";
      if (!event.toAssigneeId)
        return {
          message: `${actor ?? "Someone"} returned ticket ${name} to the queue${statusChange}`,
          params: { kind: "returned_to_queue", title, actor, status },
        };
      const assignee = (await findUserById(tx, event.toAssigneeId))?.name ?? null;
      return {
        message: `${actor ?? "Someone"} assigned ticket ${name} to ${assignee ?? "someone"}${statusChange}`,
        params: { kind: "reassigned", title, actor, assignee, status },
      };
    }
    case "edited": {
      const actor = await actorName();
      // The description may be long: the notification says it changed; the ticket shows the new text.
      const changes = (event.changes ?? []).map((change) =>
        change.field === "description"
          ? { field: change.field }
          : {
              field: change.field,
              ...("label" in change ? { label: change.label } : {}),
              from: preview(change.from),
              to: preview(change.to),
            },
      );
      const words = (event.changes ?? []).map((change) =>
        change.field === "description"
          ? "Description edited"
          : `${ticketChangeLabel(change)}: ${preview(change.from)} → ${preview(change.to)}`,
      );
      return {
        message: `${actor ?? "Someone"} edited ticket ${name}: ${words.join("; ")}`,
        params: { kind: "edited", title, actor, changes },
      };
    }
    case "feedback": {
      const actor = await actorName();
      const rating = event.rating ?? 0;
      const feedback = await findFeedback(tx, ticket.id);
      const comment = feedback?.comment ? preview(feedback.comment) : null;
      return {
        message: `${actor ?? "Someone"} rated ticket ${name} ${stars(rating)} ${rating}/5${comment ? `: ${comment}` : ""}`,
        params: { kind: "feedback", title, actor, rating, comment },
      };
    }
    case "sla_warning":
    case "sla_breached": {
      const target = event.slaTarget ?? "resolution";
      const dueAt = event.dueAt ?? null;
      const text = slaEventText(event.type, target, { dueAt, at: event.createdAt ?? new Date() });
      return {
        message: `${text} on ticket ${name}`,
        params:
          event.type === "sla_warning"
            ? { kind: "sla_warning", title, target, dueAt: dueAt?.toISOString() ?? null }
            : { kind: "sla_breached", title, target },
      };
    }
    case "auto_closed": {
      const idleDays = event.idleDays ?? 0;
      return {
        message: `Ticket ${name} was ${autoClosedText(idleDays).toLowerCase()}`,
        params: { kind: "auto_closed", title, idleDays },
      };
    }
    case "auto_assigned":
      return autoAssignedTextOf(tx, event, name, title);
    case "team_changed": {
      // Told to the team it moved to (decision 069); a move out of every team is told to no one.
      const actor = await actorName();
      const team = event.toTeamName ?? event.fromTeamName ?? "";
      return {
        message: event.toTeamName
          ? `${actor ?? "Someone"} moved ticket ${name} to team ${team}`
          : `${actor ?? "Someone"} took ticket ${name} out of team ${team}`,
        params: { kind: "team_changed", title, actor, team },
      };
    }
    case "tags_changed":
      return tagsTextOf(event, name, title, await actorName());
    case "auto_resolved": {
      const businessDays = event.idleDays ?? 0;
      return {
        message: `Ticket ${name} was ${autoResolvedText(businessDays).toLowerCase()}`,
        params: { kind: "auto_resolved", title, businessDays },
      };
    }
    case "put_on_hold":
    case "hold_changed":
    case "taken_off_hold":
      return holdTextOf(event, name, title, await actorName());
    case "merged":
    case "merged_in":
    case "linked":
    case "unlinked":
      return linkTextOf(event, name, title, await actorName());
    case "rule_notified":
    case "rule_refused":
      return ruleTextOf(event, name, title);
    case "incident_declared":
    case "incident_ended":
      return incidentTextOf(event, name, title, await actorName());
  }
}

/** Decision 077: a major incident declared or ended; sent to nobody, a text for completeness. */
function incidentTextOf(
  event: TicketEventInput,
  name: string,
  title: string,
  actor: string | null,
): NotificationText {
  const change = event.type === "incident_declared" ? "declared" : "ended";
  return {
    message: `${actor ?? "Someone"} ${change} ticket ${name} as a major incident`,
    params: { kind: "incident_changed", title, actor, change },
  };
}

/** Decision 076: a rule's notice, told to whom it names; a refusal, told to nobody (a text for completeness). */
function ruleTextOf(event: TicketEventInput, name: string, title: string): NotificationText {
  const rule = event.viaName ?? "";
  return {
    message:
      event.type === "rule_notified"
        ? `The automation rule “${rule}” asks you to look at ticket ${name}`
        : `The automation rule “${rule}” could not change ticket ${name}: ${event.note ?? ""}`,
    params: { kind: "rule_notice", title, rule },
  };
}

/**
 * Decision 074: the merged duplicate's requester reads where their ticket went; the links' entries and the
 * target's "merged in" are sent to nobody, and have a text for completeness.
 */
function linkTextOf(
  event: TicketEventInput,
  name: string,
  title: string,
  actor: string | null,
): NotificationText {
  const other = event.linkedTicketId ?? "";
  if (event.type === "merged") {
    return {
      message: `${actor ?? "Someone"} merged ticket ${name} into ticket ${other}; it is now Closed and the conversation continues there`,
      params: { kind: "merged", title, actor, target: other },
    };
  }
  const change = event.type === "linked" ? "linked" : event.type === "unlinked" ? "unlinked" : "merged_in";
  const what =
    change === "linked"
      ? `linked ticket ${name} to ticket ${other}`
      : change === "unlinked"
        ? `removed the link between ticket ${name} and ticket ${other}`
        : `merged ticket ${other} into ticket ${name}`;
  return {
    message: `${actor ?? "Someone"} ${what}`,
    params: { kind: "ticket_linked", title, actor, other, change },
  };
}

/**
 * The hold's entries (decision 070). Only a lift by the requester's reply or at the lift date is sent to
 * anyone (the assignee); the others have a text for completeness (e-mail, API) but no recipient.
 */
function holdTextOf(
  event: TicketEventInput,
  name: string,
  title: string,
  actor: string | null,
): NotificationText {
  if (event.type === "taken_off_hold" && (event.holdEnd === "reply" || event.holdEnd === "date")) {
    return event.holdEnd === "reply"
      ? {
          message: `${actor ?? "Someone"} replied: ticket ${name} is no longer on hold`,
          params: { kind: "hold_lifted", title, actor, reason: "reply" },
        }
      : {
          message: `Ticket ${name} is no longer on hold: its date to lift the hold has come`,
          params: { kind: "hold_lifted", title, actor: null, reason: "date" },
        };
  }
  const what =
    event.type === "put_on_hold"
      ? "put ticket %s on hold"
      : event.type === "hold_changed"
        ? "changed the date to lift the hold of ticket %s"
        : "took ticket %s off hold";
  return {
    message: `${actor ?? "Someone"} ${what.replace("%s", name)}`,
    params: { kind: "status_changed", title, actor, from: "In Progress", to: "In Progress" },
  };
}

/** Decision 071: a tag change is sent to nobody; the text is for completeness, as the hold's entries' are. */
function tagsTextOf(
  event: TicketEventInput,
  name: string,
  title: string,
  actor: string | null,
): NotificationText {
  const added = event.tagsAdded ?? [];
  const removed = event.tagsRemoved ?? [];
  const words = [
    ...(added.length > 0 ? [`added the tags ${added.join(", ")}`] : []),
    ...(removed.length > 0 ? [`removed the tags ${removed.join(", ")}`] : []),
  ];
  return {
    message: `${actor ?? "Someone"} ${words.join(" and ")} on ticket ${name}`,
    params: { kind: "tags_changed", title, actor, added, removed },
  };
}

/** A team's automatic assignment (decision 073). */
async function autoAssignedTextOf(
  tx: Db,
  event: TicketEventInput,
  name: string,
  title: string,
): Promise<NotificationText> {
  const assignee = event.toAssigneeId ? ((await findUserById(tx, event.toAssigneeId))?.name ?? null) : null;
  const team = event.teamId ? await findTeamName(tx, event.teamId) : null;
  const mode = event.assignmentMode === "least_open" ? "least_open" : "round_robin";
  const status = event.toStatus && event.fromStatus !== event.toStatus ? event.toStatus : null;
  const teams = team ? `the ${team} team's` : "a team's";
  const how =
    mode === "round_robin" ? ` by ${teams} round robin` : `, ${teams} member with the fewest open tickets`;
  return {
    message: `Ticket ${name} was assigned to ${assignee ?? "someone"}${how}${status ? `; it is now ${status}` : ""}`,
    params: { kind: "auto_assigned", title, assignee, team, mode, status },
  };
}
