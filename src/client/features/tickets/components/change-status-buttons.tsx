import { toast } from "react-toastify/unstyled";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";
import { type ChangeableStatus, statusTargets } from "#shared/tickets/ticket-status.ts";
import { Button } from "../../../components/ui/button.tsx";
import { useChangeTicketStatus } from "../ticket.api.ts";
import { TicketStatusDot } from "./ticket-status-badge.tsx";

interface ChangeStatusButtonsProps {
  ticketId: string;
  status: TicketStatus;
  /** The server's reason when it refused (e.g. the ticket was closed meanwhile); null after a success. */
  onOutcome: (refusal: string | null) => void;
}

/** Spec §4: one button per status the ticket may move to; rendered only when can.changeStatus. */
export function ChangeStatusButtons({ ticketId, status, onOutcome }: ChangeStatusButtonsProps) {
  const changeStatus = useChangeTicketStatus(ticketId);
  const targets = statusTargets(status);
  if (targets.length === 0) return null;

  // mutateAsync, not mutate's callbacks: a Close removes these buttons, and React Query skips mutate's
  // callbacks once their component has unmounted.
  async function handleChange(target: ChangeableStatus) {
    try {
      const ticket = await changeStatus.mutateAsync({ status: target });
      toast.success(`Ticket status updated to ${ticket.status}`);
      onOutcome(null);
    } catch (error) {
      toast.error("Failed to update ticket status");
      onOutcome(error instanceof Error ? error.message : "Failed to update ticket status");
    }
  }

  return (
    <fieldset>
      <legend className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
        Change status
      </legend>
      <div className="flex flex-wrap gap-2">
        {targets.map((target) => (
          <Button
            key={target}
            variant="secondary"
            size="sm"
            disabled={changeStatus.isPending}
            onClick={() => void handleChange(target)}
          >
            <TicketStatusDot status={target} />
            {target}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}
