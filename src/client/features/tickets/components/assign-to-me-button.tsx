import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { LoaderCircle, UserRoundPlus } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { useAssignToMe } from "#client/features/tickets/ticket.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { toast } from "#client/lib/toast.ts";
import { formNameField, ticketFormNames } from "#shared/page-rendering/page-forms.ts";

interface AssignToMeButtonProps {
  ticketId: string;
  /** The server's reason when it refused, e.g. another technician won the race; null after a success. */
  onOutcome: (refusal: string | null) => void;
}

/**
 * Rendered only when can.assignToSelf: the server decides again, race-safe. A form's submit button:
 * without the app's code (or before it), it posts to the ticket's page, which assigns through the same
 * API and comes back (decision 065).
 */
export function AssignToMeButton({ ticketId, onOutcome }: AssignToMeButtonProps) {
  const { assign, handleAssign } = useAssignToMeAction(ticketId, onOutcome);

  return (
    <form method="post" name={ticketFormNames.assign}>
      <input type="hidden" name={formNameField} value={ticketFormNames.assign} />
      <Button
        type="submit"
        onClick={(event) => {
          event.preventDefault();
          void handleAssign();
        }}
        disabled={assign.isPending}
        className="w-full"
      >
        {assign.isPending ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <UserRoundPlus aria-hidden="true" className="size-4" />
        )}
        <Trans>Assign to Me</Trans>
      </Button>
    </form>
  );
}

/**
 * Assign to Me as the button does it, with its toasts: the button and the `a` shortcut share it.
 * Resolves to whether the server assigned the ticket.
 */
export function useAssignToMeAction(ticketId: string, onOutcome: (refusal: string | null) => void) {
  const assign = useAssignToMe(ticketId);

  // mutateAsync, not mutate's callbacks: on success this button disappears (the ticket is no longer
  // Open and unassigned), and React Query skips mutate's callbacks once their component has unmounted.
  async function handleAssign(): Promise<boolean> {
    try {
      await assign.mutateAsync();
      toast.success(t`Ticket assigned successfully`);
      onOutcome(null);
      return true;
    } catch (error) {
      toast.error(t`Failed to assign ticket`);
      onOutcome(refusalOf(error));
      return false;
    }
  }
  return { assign, handleAssign };
}

/**
 * The button shows only on a ticket that was Open and unassigned when the page loaded, so a 404 means
 * another technician's assignment committed first and the ticket is no longer this person's to see. The
 * server names the winner only when both requests met at the conditional update.
 */
export const lostToAnotherTechnician = "This ticket was just assigned to another technician.";
function refusalOf(error: unknown): string {
  if (isApiError(error, 404)) return lostToAnotherTechnician;
  return error instanceof Error ? error.message : t`Failed to assign ticket`;
}
