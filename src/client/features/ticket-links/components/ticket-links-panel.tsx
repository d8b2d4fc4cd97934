import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { GitMerge, LoaderCircle, X } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { relationChoices, relationLabels } from "#client/features/ticket-links/ticket-link-labels.ts";
import {
  ticketLinksQuery,
  useCreateTicketLink,
  useRemoveTicketLink,
} from "#client/features/ticket-links/ticket-links.api.ts";
import { i18n } from "#client/lib/i18n.ts";
import { toast } from "#client/lib/toast.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { type Actor, can } from "#shared/permissions.ts";
import {
  type LinkableRelation,
  linkableRelations,
  type TicketLink,
} from "#shared/ticket-links/ticket-link.schemas.ts";
import type { Ticket, TicketStatus } from "#shared/tickets/ticket.schemas.ts";
import { LinkedTicketLine } from "./linked-ticket-line.tsx";
import { MergeTicketDialog } from "./merge-ticket-dialog.tsx";
import { TicketPicker, typedTicketId } from "./ticket-picker.tsx";

interface TicketLinksPanelProps {
  actor: Actor;
  ticket: Ticket;
  /** How a status is shown (the tickets feature's badge, composed by the page). */
  renderStatus: (status: TicketStatus) => ReactNode;
  /** The merged ticket, for the page to show (the ticket's caches are the tickets feature's). */
  onChanged: (ticket: Ticket) => void;
  /** A refusal: the page reads the ticket again. */
  onRefused: (error: Error) => void;
}

const messageOf = (failure: unknown, fallback: string) =>
  failure instanceof Error ? failure.message : fallback;

/**
 * "Linked tickets" on a ticket's page (decision 074, staff): each link with what the other ticket is to
 * this one and its status; a form that links another ticket by its id or title words; a button per link
 * that removes it; and "Merge into…", which opens the merge's confirmation.
 */
export function TicketLinksPanel({
  actor,
  ticket,
  renderStatus,
  onChanged,
  onRefused,
}: TicketLinksPanelProps) {
  const { t } = useLingui();
  const isHydrated = useHydrated();
  const links = useQuery(ticketLinksQuery(ticket.ticketId));
  const remove = useRemoveTicketLink(ticket.ticketId);
  const [isMerging, setIsMerging] = useState(false);
  const canChange = can.linkTickets(actor, ticket);
  // Merging needs a target too; the dialog checks it. A Closed (or merged) ticket cannot be merged.
  const canMerge = can.changeStatus(actor, ticket);

  async function handleRemove(link: TicketLink) {
    try {
      await remove.mutateAsync(link);
      toast.success(t`Link to ${link.ticketId} removed`);
    } catch (failure) {
      toast.error(messageOf(failure, t`The link could not be removed.`));
    }
  }

  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Linked tickets</Trans>
      </h2>
      {links.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner label={t`Loading linked tickets`} />
        </div>
      ) : links.isError ? (
        <LoadFailed
          message={t`The linked tickets could not be loaded.`}
          onRetry={() => void links.refetch()}
          className="mt-3"
        />
      ) : links.data.items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">
          <Trans>No linked tickets.</Trans>
        </p>
      ) : (
        <ul className="mt-3 flex flex-col divide-y divide-slate-100" aria-label={t`Linked tickets`}>
          {links.data.items.map((link) => (
            <li key={link.linkId} className="flex items-start gap-2 py-2 first:pt-0 last:pb-0">
              <LinkedTicketLine
                label={i18n._(relationLabels[link.relation])}
                ticketId={link.ticketId}
                title={link.title}
                status={link.status}
                renderStatus={renderStatus}
              />
              {canChange ? (
                <button
                  type="button"
                  className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
                  aria-label={t`Remove the link to ${link.ticketId}`}
                  disabled={!isHydrated || remove.isPending}
                  onClick={() => void handleRemove(link)}
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canChange ? <AddLinkForm ticket={ticket} /> : null}
      {canMerge ? (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <Button variant="secondary" size="sm" disabled={!isHydrated} onClick={() => setIsMerging(true)}>
            <GitMerge aria-hidden="true" className="size-4" />
            <Trans>Merge into…</Trans>
          </Button>
        </div>
      ) : null}
      {isMerging ? (
        <MergeTicketDialog
          ticket={ticket}
          onClose={() => setIsMerging(false)}
          onMerged={onChanged}
          onRefused={onRefused}
        />
      ) : null}
    </Card>
  );
}

/** Links another ticket: "This ticket is [related to ▾] [TKT… or title words] Add". */
function AddLinkForm({ ticket }: { ticket: Ticket }) {
  const { t } = useLingui();
  const id = useId();
  const isHydrated = useHydrated();
  const create = useCreateTicketLink(ticket.ticketId);
  const [relation, setRelation] = useState<LinkableRelation>("related");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const otherId = typedTicketId(text);
    if (!otherId) {
      setError(t`Type a ticket id (TKT…), or pick a ticket from the suggestions`);
      return;
    }
    setError(undefined);
    try {
      await create.mutateAsync({ ticketId: otherId, kind: relation });
      toast.success(t`Linked to ${otherId}`);
      setText("");
    } catch (failure) {
      setError(messageOf(failure, t`The link could not be made.`));
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="mt-4 flex flex-col gap-1.5" noValidate>
      <label htmlFor={`${id}-relation`} className="text-sm font-medium text-slate-700">
        <Trans>Link another ticket: this ticket is</Trans>
      </label>
      <Select
        id={`${id}-relation`}
        name="kind"
        className="h-9 py-1"
        value={relation}
        onChange={(event) => setRelation(event.target.value as LinkableRelation)}
        options={linkableRelations.map((value) => ({ value, label: i18n._(relationChoices[value]) }))}
      />
      <label htmlFor={`${id}-ticket`} className="sr-only">
        <Trans>Ticket to link</Trans>
      </label>
      <div className="flex flex-col gap-1.5">
        <TicketPicker
          id={`${id}-ticket`}
          value={text}
          onChange={(value) => {
            setText(value);
            setError(undefined);
          }}
          excludeIds={[ticket.ticketId]}
          error={error}
        />
      </div>
      <div>
        <Button type="submit" size="sm" variant="secondary" disabled={!isHydrated || create.isPending}>
          {create.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Add link</Trans>
        </Button>
      </div>
    </form>
  );
}
