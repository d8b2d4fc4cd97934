import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  autoClosedSentence,
  autoResolvedSentence,
  slaEventSentence,
} from "#client/features/tickets/service-level-texts.ts";
import { useChangedWhileWriting } from "#client/features/tickets/stale-reply.ts";
import { ticketActivityQuery } from "#client/features/tickets/ticket.api.ts";
import { statusLabels } from "#client/features/tickets/ticket-labels.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { i18n } from "#client/lib/i18n.ts";
import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import { isSlaEventType } from "#shared/service-levels/sla-escalation.ts";
import type { TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";
import { NewMark } from "./new-mark.tsx";
import { RatingStars } from "./rating-stars.tsx";
import { changedWhileWritingAttribute } from "./stale-reply-prompt.tsx";
import { BatchItem, entriesOf } from "./ticket-activity-batch.tsx";
import { eventIcons as icons } from "./ticket-activity-icons.ts";
import { TicketChanges } from "./ticket-changes.tsx";
import { LinkSummary } from "./ticket-link-summary.tsx";

/** Entries nobody made: the jobs' (auto-close, auto-resolve, a hold lifted at its date) stand without a name. */
const isByNobody = (event: TicketEvent) =>
  event.type === "auto_closed" ||
  event.type === "auto_assigned" ||
  event.type === "auto_resolved" ||
  (event.type === "taken_off_hold" && !event.actorId);

/** Everything that happened to the ticket, oldest first: who, what (from → to) and when. */
export function TicketActivityTimeline({ ticketId }: { ticketId: string }) {
  const activity = useQuery(ticketActivityQuery(ticketId));
  const changedWhileWriting = useChangedWhileWriting(ticketId).events;

  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Activity</Trans>
      </h2>
      {activity.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t`Loading activity`} />
        </div>
      ) : activity.isError ? (
        <LoadFailed
          message={t`The activity could not be loaded.`}
          onRetry={() => void activity.refetch()}
          className="mt-3"
        />
      ) : (
        <ol aria-label={t`Ticket activity`} className="mt-4">
          {entriesOf(activity.data.events).map((entry, index, entries) =>
            entry.length > 1 || entry[0]!.via ? (
              <BatchItem
                key={entry[0]!.id}
                events={entry}
                isLast={index === entries.length - 1}
                isNew={entry.some((event) => changedWhileWriting.has(event.id))}
                renderEvent={(event) => (
                  <>
                    <EventSummary event={event} />
                    <EventDetail event={event} />
                  </>
                )}
              />
            ) : (
              <TimelineItem
                key={entry[0]!.id}
                event={entry[0]!}
                isLast={index === entries.length - 1}
                isNew={changedWhileWriting.has(entry[0]!.id)}
              />
            ),
          )}
        </ol>
      )}
    </Card>
  );
}

function TimelineItem({ event, isLast, isNew }: { event: TicketEvent; isLast: boolean; isNew: boolean }) {
  const { icon: Icon, tone } = icons[event.type];
  const who = event.actorName ?? t`Someone`;
  return (
    <li
      className="relative flex gap-3 rounded-lg pb-5 last:pb-0 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
      {...(isNew ? { [changedWhileWritingAttribute]: "", tabIndex: -1 } : {})}
    >
      {isLast ? null : (
        <span aria-hidden="true" className="absolute top-8 bottom-0 left-3.5 w-px bg-slate-200" />
      )}
      <span className={cn("relative flex size-7 shrink-0 items-center justify-center rounded-full", tone)}>
        <Icon aria-hidden="true" className="size-3.5" />
      </span>
      <div className="min-w-0 flex-1 pt-0.5 text-sm">
        {isSlaEventType(event.type) ? (
          // The escalation job acts for nobody: the entry says what happened to the target, no "who".
          <p
            className={cn(
              "break-words font-medium",
              event.type === "sla_breached" ? "text-red-700" : "text-amber-800",
            )}
          >
            {slaEventSentence(event.type, event.slaTarget ?? "resolution", {
              dueAt: event.dueAt ? new Date(event.dueAt) : null,
              at: new Date(event.at),
            })}
          </p>
        ) : (
          <p className="break-words text-slate-700">
            {/* Nobody closes, resolves or team-assigns a ticket automatically: the sentence stands without a name. */}
            {isByNobody(event) ? null : (
              <>
                <span className="font-medium text-slate-900">{who}</span>
                <Separator />
              </>
            )}
            <EventSummary event={event} />
          </p>
        )}
        <EventDetail event={event} />
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
          <time dateTime={event.at}>{formatDateTime(event.at)}</time>
          {isNew ? <NewMark /> : null}
        </p>
      </div>
    </li>
  );
}

function EventSummary({ event }: { event: TicketEvent }): ReactNode {
  switch (event.type) {
    case "created":
      return t`created the ticket`;
    case "assigned":
      return (
        <>
          <Trans>assigned it to themself</Trans>
          <Separator />
          <Transition event={event} />
        </>
      );
    case "status_changed":
      return <Transition event={event} />;
    case "commented":
      return t`commented`;
    case "feedback":
      return t`gave feedback`;
    case "reassigned":
      return (
        <>
          {event.toAssigneeName === null ? (
            t`returned it to the queue`
          ) : (
            <Trans>
              assigned it to <span className="font-medium text-slate-900">{event.toAssigneeName}</span>
            </Trans>
          )}
          {event.fromStatus === event.toStatus ? null : (
            <>
              <Separator />
              <Transition event={event} />
            </>
          )}
        </>
      );
    case "internal_note":
      return t`added an internal note`;
    case "edited":
      return t`edited the ticket`;
    case "sla_warning":
    case "sla_breached":
      // Shown without a "who" (TimelineItem); listed for completeness.
      return null;
    case "team_changed":
      // Decision 069: the names the teams had then; a deleted team's name stays in the entry.
      return event.toTeamName === null ? (
        <Trans>
          took it out of team <span className="font-medium text-slate-900">{event.fromTeamName}</span>
        </Trans>
      ) : (
        <Trans>
          moved it to team <span className="font-medium text-slate-900">{event.toTeamName}</span>
        </Trans>
      );
    case "tags_changed":
      return <TagsChangedSentence added={event.tagsAdded ?? []} removed={event.tagsRemoved ?? []} />;
    case "auto_assigned":
      return (
        <>
          <AutoAssignedSentence event={event} />
          {event.fromStatus === event.toStatus ? null : (
            <>
              <Separator />
              <Transition event={event} />
            </>
          )}
        </>
      );
    case "auto_closed":
      return (
        <>
          {autoClosedSentence(event.idleDays ?? 0)}
          <Separator />
          <Transition event={event} />
        </>
      );
    case "auto_resolved":
      return (
        <>
          {autoResolvedSentence(event.idleDays ?? 0)}
          <Separator />
          <Transition event={event} />
        </>
      );
    case "put_on_hold":
    case "hold_changed":
    case "taken_off_hold":
      return <HoldSummary event={event} />;
    case "linked":
    case "unlinked":
    case "merged_in":
      return <LinkSummary event={event} />;
    case "merged":
      return (
        <>
          <LinkSummary event={event} />
          <Separator />
          <Transition event={event} />
        </>
      );
    // Decision 076: inside the rule's entry (BatchItem), whom it told, and why it changed nothing.
    case "rule_notified":
      return <Trans>notified {event.message}</Trans>;
    case "rule_refused":
      return event.message;
    case "incident_declared":
      return t`declared it a major incident`;
    case "incident_ended":
      return t`ended the major incident`;
  }
}

/** The hold's entries (decision 070): put on hold until…, a new date, and taken off hold and why. */
function HoldSummary({ event }: { event: TicketEvent }): ReactNode {
  const until = event.holdUntil ? (
    <time dateTime={event.holdUntil} className="font-medium text-slate-900">
      {formatDateTime(event.holdUntil)}
    </time>
  ) : null;
  if (event.type === "put_on_hold") {
    return until ? <Trans>put it on hold until {until}</Trans> : t`put it on hold, waiting for the requester`;
  }
  if (event.type === "hold_changed") {
    return until ? <Trans>set the hold to lift on {until}</Trans> : t`removed the date to lift the hold`;
  }
  switch (event.holdEnd) {
    case "reply":
      return t`replied, which took it off hold`;
    case "date":
      return t`Taken off hold: its date came`;
    case "status":
      return event.actorId
        ? t`took it off hold by changing its status`
        : t`Taken off hold as it was resolved`;
    default:
      return t`took it off hold`;
  }
}

/** Decision 073: which member a team gave the ticket to, and how it chose (the team as it is called now). */
function AutoAssignedSentence({ event }: { event: TicketEvent }) {
  const assignee = <span className="font-medium text-slate-900">{event.toAssigneeName ?? t`someone`}</span>;
  const team = event.teamName;
  if (event.assignmentMode === "least_open") {
    return team ? (
      <Trans>
        Assigned to {assignee}, the {team} team's member with the fewest open tickets
      </Trans>
    ) : (
      <Trans>Assigned to {assignee}, a team's member with the fewest open tickets</Trans>
    );
  }
  return team ? (
    <Trans>
      Assigned to {assignee} by the {team} team's round robin
    </Trans>
  ) : (
    <Trans>Assigned to {assignee} by a team's round robin</Trans>
  );
}

function EventDetail({ event }: { event: TicketEvent }) {
  if ((event.type === "commented" || event.type === "internal_note") && event.message) {
    return (
      <p className="mt-1 line-clamp-2 break-words text-slate-500">“{mentionsToPlainText(event.message)}”</p>
    );
  }
  if (event.type === "edited" && event.changes) return <TicketChanges changes={event.changes} />;
  if (event.type === "feedback" && event.rating !== null) {
    return (
      <div className="mt-1">
        <RatingStars rating={event.rating} size="sm" />
      </div>
    );
  }
  return null;
}

function Transition({ event }: { event: TicketEvent }) {
  return (
    <span className="whitespace-nowrap">
      {event.fromStatus ? i18n._(statusLabels[event.fromStatus]) : "—"} →{" "}
      <span className="font-medium text-slate-900">
        {event.toStatus ? i18n._(statusLabels[event.toStatus]) : "—"}
      </span>
    </span>
  );
}

const Separator = () => (
  <span aria-hidden="true" className="mx-1.5 text-slate-400">
    ·
  </span>
);

/** Decision 071: "added the tags vpn, printer · removed the tag legacy" (staff only). */
function TagsChangedSentence({ added, removed }: { added: string[]; removed: string[] }) {
  const addedTags = added.join(", ");
  const removedTags = removed.join(", ");
  return (
    <>
      {added.length > 0 ? (
        <Trans>
          added <span className="font-medium text-slate-900">{addedTags}</span>
        </Trans>
      ) : null}
      {added.length > 0 && removed.length > 0 ? <Separator /> : null}
      {removed.length > 0 ? (
        <Trans>
          removed <span className="font-medium text-slate-900">{removedTags}</span>
        </Trans>
      ) : null}
    </>
  );
}
