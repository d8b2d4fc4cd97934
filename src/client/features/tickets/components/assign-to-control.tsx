import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle, UserRoundCog } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { technicianListQuery, useAssignTicket } from "#client/features/tickets/ticket.api.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

interface AssignToControlProps {
  actor: Actor;
  ticket: Ticket;
  /** The server's reason when it refused (e.g. another admin reassigned it first); null after a success. */
  onOutcome: (refusal: string | null) => void;
}

const queue = "queue";
// Nothing is chosen until the person picks: an admin clicking Assign by mistake must not send a ticket anywhere.
const unchosen = "";

/** Rendered only when can.assignTo: the choices are the other active technicians, and the queue for admins. */
export function AssignToControl({ actor, ticket, onOutcome }: AssignToControlProps) {
  const { t } = useLingui();
  const id = useId();
  const navigate = useNavigate();
  const technicians = useQuery(technicianListQuery());
  const assign = useAssignTicket(ticket.ticketId);
  const options = [
    { value: unchosen, label: t`Choose…` },
    ...(can.returnToQueue(actor, ticket) && ticket.assignedTo !== null
      ? [{ value: queue, label: t`Unassigned (queue)` }]
      : []),
    ...(technicians.data ?? [])
      .filter((technician) => technician.id !== ticket.assignedTo)
      .map((technician) => ({ value: technician.id, label: technician.name })),
  ];
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen !== null && options.some((option) => option.value === chosen) ? chosen : unchosen;

  // mutateAsync, not mutate's callbacks: a hand-off can remove this control, and React Query skips
  // mutate's callbacks once their component has unmounted.
  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected === unchosen) return;
    try {
      const changed = await assign.mutateAsync({ assigneeId: selected === queue ? null : selected });
      const assigneeName = changed.assignedToName;
      toast.success(assigneeName ? t`Ticket assigned to ${assigneeName}` : t`Ticket returned to the queue`);
      onOutcome(null);
      // A technician who handed their ticket on may no longer see it.
      if (!can.viewTicket(actor, changed)) void navigate("/technician-home");
    } catch (error) {
      toast.error(t`Failed to assign ticket`);
      onOutcome(error instanceof Error ? error.message : t`Failed to assign ticket`);
    }
  }

  if (technicians.isError)
    return (
      <p className="text-sm text-red-700">
        <Trans>The technicians could not be loaded.</Trans>
      </p>
    );
  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-2">
      <label htmlFor={id} className="text-xs font-medium tracking-wide text-slate-500 uppercase">
        <Trans>Assign to…</Trans>
      </label>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <Select
            id={id}
            name="assignee"
            options={options}
            value={selected}
            disabled={technicians.isPending || options.length === 1}
            onChange={(event) => setChosen(event.target.value)}
          />
        </div>
        <Button
          type="submit"
          variant="secondary"
          disabled={technicians.isPending || assign.isPending || selected === unchosen}
        >
          {assign.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <UserRoundCog aria-hidden="true" className="size-4" />
          )}
          <Trans>Assign</Trans>
        </Button>
      </div>
    </form>
  );
}
