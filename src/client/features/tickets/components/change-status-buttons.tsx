import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Button } from "#client/components/ui/button.tsx";
import { useChangeTicketStatus } from "#client/features/tickets/ticket.api.ts";
import { statusLabels } from "#client/features/tickets/ticket-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { toast } from "#client/lib/toast.ts";
import { formNameField, ticketFormNames } from "#shared/page-rendering/page-forms.ts";
import type { Actor } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { type ChangeableStatus, statusTargets } from "#shared/tickets/ticket-status.ts";
import { TicketStatusDot } from "./ticket-status-badge.tsx";

interface ChangeStatusButtonsProps {
  actor: Actor;
  ticket: Ticket;
  /** The server's reason when it refused (e.g. the ticket was closed meanwhile); null after a success. */
  onOutcome: (refusal: string | null) => void;
}

/**
 * One button per status this person may move the ticket to (the server's rule, statusTargets). Each is a
 * form's submit button: without the app's code (or before it), the status pressed is posted to the ticket's
 * page, which changes it through the same API and comes back (decision 065).
 */
export function ChangeStatusButtons({ actor, ticket, onOutcome }: ChangeStatusButtonsProps) {
  const { changeStatus, handleChange } = useChangeStatusAction(ticket.ticketId, onOutcome);
  const targets = statusTargets(actor, ticket);
  if (targets.length === 0) return null;

  return (
    <form method="post" name={ticketFormNames.status}>
      <input type="hidden" name={formNameField} value={ticketFormNames.status} />
      <fieldset>
        <legend className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
          <Trans>Change status</Trans>
        </legend>
        <div className="flex flex-wrap gap-2">
          {targets.map((target) => (
            <Button
              key={target}
              type="submit"
              name="status"
              value={target}
              variant="secondary"
              size="sm"
              disabled={changeStatus.isPending}
              onClick={(event) => {
                event.preventDefault();
                void handleChange(target);
              }}
            >
              <TicketStatusDot status={target} />
              {i18n._(statusLabels[target])}
            </Button>
          ))}
        </div>
      </fieldset>
    </form>
  );
}

/**
 * A status change as the buttons do it, with their toasts: the buttons and the `r` shortcut share it.
 * Resolves to whether the server changed the status.
 */
export function useChangeStatusAction(ticketId: string, onOutcome: (refusal: string | null) => void) {
  const changeStatus = useChangeTicketStatus(ticketId);

  // mutateAsync, not mutate's callbacks: a Close removes these buttons, and React Query skips mutate's
  // callbacks once their component has unmounted.
  async function handleChange(target: ChangeableStatus): Promise<boolean> {
    try {
      const ticket = await changeStatus.mutateAsync({ status: target });
      const status = i18n._(statusLabels[ticket.status]);
      toast.success(t`Ticket status updated to ${status}`);
      onOutcome(null);
      return true;
    } catch (error) {
      toast.error(t`Failed to update ticket status`);
      onOutcome(error instanceof Error ? error.message : t`Failed to update ticket status`);
      return false;
    }
  }
  return { changeStatus, handleChange };
}
