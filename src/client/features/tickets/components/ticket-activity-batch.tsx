import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Siren, WandSparkles, Workflow } from "lucide-react";
import type { ReactNode } from "react";
import { formatDateTime } from "#client/lib/format.ts";
import type { TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";
import { NewMark } from "./new-mark.tsx";
import { changedWhileWritingAttribute } from "./stale-reply-prompt.tsx";

/**
 * The timeline's entries: each event alone, except the events of one macro's application (decision 075) or
 * one automation rule's (decision 076), which share a batch and make one entry. Staff only see the batch: a requester's events carry no `via`.
 */
export function entriesOf(events: readonly TicketEvent[]): TicketEvent[][] {
  const entries: TicketEvent[][] = [];
  for (const event of events) {
    const last = entries.at(-1);
    if (event.via && last?.[0]?.via?.batchId === event.via.batchId) last.push(event);
    else entries.push([event]);
  }
  return entries;
}

/**
 * "Ada applied the macro “VPN known issue”" (or "The automation rule “VPN to Network” changed the ticket"),
 * then what each of its events changed.
 */
export function BatchItem({
  events,
  isLast,
  isNew,
  renderEvent,
}: {
  events: TicketEvent[];
  isLast: boolean;
  isNew: boolean;
  /** What one event changed, as the timeline words it alone. */
  renderEvent: (event: TicketEvent) => ReactNode;
}) {
  const first = events[0]!;
  const who = first.actorName ?? t`Someone`;
  const name = first.via?.name ?? "";
  return (
    <li
      className="relative flex gap-3 rounded-lg pb-5 last:pb-0 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
      {...(isNew ? { [changedWhileWritingAttribute]: "", tabIndex: -1 } : {})}
    >
      {isLast ? null : (
        <span aria-hidden="true" className="absolute top-8 bottom-0 left-3.5 w-px bg-slate-200" />
      )}
      <span className="relative flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        {first.via?.kind === "incident" ? (
          <Siren aria-hidden="true" className="size-3.5" />
        ) : first.via?.kind === "rule" ? (
          <Workflow aria-hidden="true" className="size-3.5" />
        ) : (
          <WandSparkles aria-hidden="true" className="size-3.5" />
        )}
      </span>
      <div className="min-w-0 flex-1 pt-0.5 text-sm">
        <p className="break-words text-slate-700">
          {first.type === "rule_refused" ? (
            <Trans>
              The automation rule <span className="font-medium text-slate-900">“{name}”</span> could not
              change the ticket; its changes were undone
            </Trans>
          ) : events.every((event) => event.type === "rule_notified") ? (
            <Trans>
              The automation rule <span className="font-medium text-slate-900">“{name}”</span> asked for
              attention
            </Trans>
          ) : first.via?.kind === "rule" ? (
            <Trans>
              The automation rule <span className="font-medium text-slate-900">“{name}”</span> changed the
              ticket
            </Trans>
          ) : first.via?.kind === "incident" ? (
            <Trans>
              <span className="font-medium text-slate-900">{who}</span>, for the major incident “{name}”
            </Trans>
          ) : (
            <Trans>
              <span className="font-medium text-slate-900">{who}</span> applied the macro “{name}”
            </Trans>
          )}
        </p>
        <ul className="mt-1 flex flex-col gap-1 text-slate-600">
          {events.map((event) => (
            <li key={event.id} className="break-words">
              {renderEvent(event)}
            </li>
          ))}
        </ul>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
          <time dateTime={first.at}>{formatDateTime(first.at)}</time>
          {isNew ? <NewMark /> : null}
        </p>
      </div>
    </li>
  );
}
