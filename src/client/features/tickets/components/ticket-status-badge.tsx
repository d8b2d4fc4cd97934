import { Trans, useLingui } from "@lingui/react/macro";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { priorityLabels, statusLabels } from "#client/features/tickets/ticket-labels.ts";
import type { TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

const statusTones: Record<TicketStatus, BadgeTone> = {
  Open: "blue",
  "In Progress": "amber",
  Resolved: "green",
  Closed: "slate",
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { i18n } = useLingui();
  return <Badge tone={statusTones[status]}>{i18n._(statusLabels[status])}</Badge>;
}

const statusDots: Record<TicketStatus, string> = {
  Open: "bg-blue-500",
  "In Progress": "bg-amber-500",
  Resolved: "bg-green-500",
  Closed: "bg-slate-400",
};

/** The status's colour as a dot, beside a status written out (e.g. on the status buttons). */
export function TicketStatusDot({ status }: { status: TicketStatus }) {
  return <span aria-hidden="true" className={cn("size-2 shrink-0 rounded-full", statusDots[status])} />;
}

export const priorityDots: Record<TicketPriority, string> = {
  Low: "bg-slate-400",
  Medium: "bg-amber-500",
  High: "bg-red-500",
};

export function TicketPriorityLabel({ priority }: { priority: TicketPriority }) {
  const { i18n } = useLingui();
  const label = i18n._(priorityLabels[priority]);
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span aria-hidden="true" className={cn("size-2 rounded-full", priorityDots[priority])} />
      <Trans>{label} priority</Trans>
    </span>
  );
}
