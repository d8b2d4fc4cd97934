import { Trans } from "@lingui/react/macro";
import { Lock } from "lucide-react";
import { Card } from "#client/components/ui/card.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { AssignToControl } from "./assign-to-control.tsx";
import { AssignToMeButton } from "./assign-to-me-button.tsx";
import { ChangeStatusButtons } from "./change-status-buttons.tsx";
import { TicketHoldControls } from "./ticket-hold-controls.tsx";

interface TicketActionsProps {
  ticket: Ticket;
  /** The server's reason when it refused an action; null after a success. */
  onOutcome: (refusal: string | null) => void;
}

/** What the signed-in person may do to the ticket, mirroring can.* (the server decides again). */
export function TicketActions({ ticket, onOutcome }: TicketActionsProps) {
  const actor = useActor();
  if (!actor) return null;
  const canAssign = can.assignToSelf(actor, ticket);
  const canChangeStatus = can.changeStatus(actor, ticket);
  const canAssignTo = can.assignTo(actor, ticket);
  const isStaff = actor.role === "technician" || actor.role === "admin";

  if (!canAssign && !canChangeStatus && !canAssignTo) {
    return isStaff && ticket.status === "Closed" ? (
      <Card className="flex items-start gap-3 p-5 text-sm text-slate-600">
        <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
        <p>
          <Trans>This ticket is closed; its status can no longer change.</Trans>
        </p>
      </Card>
    ) : null;
  }

  return (
    <Card className="flex flex-col gap-5 p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Actions</Trans>
      </h2>
      {canAssign ? (
        <div className="flex flex-col gap-2">
          <AssignToMeButton ticketId={ticket.ticketId} onOutcome={onOutcome} />
          <p className="text-xs text-slate-500">
            <Trans>You become its assignee and it moves to In Progress.</Trans>
          </p>
        </div>
      ) : null}
      {canChangeStatus ? <ChangeStatusButtons actor={actor} ticket={ticket} onOutcome={onOutcome} /> : null}
      <TicketHoldControls actor={actor} ticket={ticket} onOutcome={onOutcome} />
      {canAssignTo ? <AssignToControl actor={actor} ticket={ticket} onOutcome={onOutcome} /> : null}
    </Card>
  );
}
