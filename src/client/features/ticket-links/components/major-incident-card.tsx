import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle, Siren, X } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { errorIdFor, Input, Textarea } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import {
  ticketIncidentQuery,
  useAddAffected,
  useDeclareIncident,
  useEndIncident,
  usePostIncidentUpdate,
  useRemoveAffected,
} from "#client/features/ticket-links/major-incident.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { Link } from "#client/lib/router/links.tsx";
import { toast } from "#client/lib/toast.ts";
import { incidentHeadlineMaxLength } from "#shared/major-incidents/major-incident.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { Ticket, TicketStatus } from "#shared/tickets/ticket.schemas.ts";
import { LinkedTicketLine } from "./linked-ticket-line.tsx";
import { TicketPicker, typedTicketId } from "./ticket-picker.tsx";

interface MajorIncidentCardProps {
  actor: Actor;
  ticket: Ticket;
  /** How a status is shown (the tickets feature's badge, composed by the page). */
  renderStatus: (status: TicketStatus) => ReactNode;
}

const messageOf = (failure: unknown, fallback: string) =>
  failure instanceof Error ? failure.message : fallback;

/** The ticket ids typed in one field: several at once ("TKT… TKT…"), or the one picked by its title. */
export function typedTicketIds(value: string): string[] {
  const words = value.split(/[\s,;]+/).filter(Boolean);
  const ids = words.map(typedTicketId);
  if (words.length > 1 && ids.every((id) => id !== null)) return [...new Set(ids as string[])];
  const one = typedTicketId(value);
  return one ? [one] : [];
}

/**
 * "Major incident" on a ticket's page, for staff (decision 077): on an ordinary ticket, "Declare major
 * incident" with its public headline; on an incident, the headline, the affected tickets (each linked, with
 * its status and a remove button), "Add affected tickets" and "Post update" (public: it reaches every
 * affected ticket's requester and the known issue's followers), and "End major incident".
 */
export function MajorIncidentCard({ actor, ticket, renderStatus }: MajorIncidentCardProps) {
  const { t } = useLingui();
  const incident = useQuery(ticketIncidentQuery(ticket.ticketId));
  const mayRun = can.runMajorIncident(actor, ticket);
  if (incident.isError) {
    return (
      <Card className="p-5">
        <LoadFailed
          message={t`The major incident could not be loaded.`}
          onRetry={() => void incident.refetch()}
        />
      </Card>
    );
  }
  if (!incident.data) return null;
  const declared = incident.data.incident;
  if (!declared) {
    // A ticket affected by an incident is not one itself; a merged or Closed one cannot be.
    if (!mayRun || incident.data.affectedBy || ticket.mergedIntoId) return null;
    return (
      <Card className="p-5">
        <DeclareForm ticketId={ticket.ticketId} />
      </Card>
    );
  }
  return (
    <Card className="p-5">
      <section aria-labelledby={`${ticket.ticketId}-incident`}>
        <h2
          id={`${ticket.ticketId}-incident`}
          className="flex items-center gap-2 text-sm font-semibold text-slate-900"
        >
          <Siren aria-hidden="true" className="size-4 text-red-700" />
          <Trans>Major incident</Trans>
        </h2>
        <p className="mt-2 break-words text-sm font-medium text-slate-900">{declared.headline}</p>
        <p className="text-xs text-slate-500">
          <Trans>
            Declared <time dateTime={declared.declaredAt}>{formatDateTime(declared.declaredAt)}</time>
          </Trans>
          {" · "}
          <Link
            to={`/known-issues/${ticket.ticketId}`}
            className="text-indigo-700 underline hover:no-underline"
          >
            <Trans>Public page</Trans>
          </Link>
        </p>
        <AffectedList
          incidentId={ticket.ticketId}
          affected={declared.affected}
          canChange={mayRun}
          renderStatus={renderStatus}
        />
        {mayRun ? (
          <>
            <AddAffectedForm
              incidentId={ticket.ticketId}
              excludeIds={declared.affected.map((row) => row.ticketId)}
            />
            <PostUpdateForm incidentId={ticket.ticketId} />
            <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
              <DeclareForm ticketId={ticket.ticketId} current={declared.headline} />
              <EndButton ticketId={ticket.ticketId} />
            </div>
          </>
        ) : null}
      </section>
    </Card>
  );
}

function AffectedList({
  incidentId,
  affected,
  canChange,
  renderStatus,
}: {
  incidentId: string;
  affected: Array<{ ticketId: string; title: string; status: TicketStatus }>;
  canChange: boolean;
  renderStatus: (status: TicketStatus) => ReactNode;
}) {
  const { t } = useLingui();
  const remove = useRemoveAffected(incidentId);
  async function handleRemove(affectedId: string) {
    try {
      await remove.mutateAsync(affectedId);
      toast.success(t`${affectedId} is no longer affected`);
    } catch (failure) {
      toast.error(messageOf(failure, t`The ticket could not be unlinked.`));
    }
  }
  if (affected.length === 0) {
    return (
      <p className="mt-3 text-sm text-slate-500">
        <Trans>No affected tickets yet.</Trans>
      </p>
    );
  }
  return (
    <ul className="mt-3 flex flex-col divide-y divide-slate-100" aria-label={t`Affected tickets`}>
      {affected.map((row) => (
        <li key={row.ticketId} className="flex items-start gap-2 py-2 first:pt-0 last:pb-0">
          <LinkedTicketLine
            ticketId={row.ticketId}
            title={row.title}
            status={row.status}
            renderStatus={renderStatus}
          />
          {canChange ? (
            <Button
              variant="ghost"
              size="sm"
              aria-label={t`Unlink ${row.ticketId} from the major incident`}
              disabled={remove.isPending}
              onClick={() => void handleRemove(row.ticketId)}
            >
              <X aria-hidden="true" className="size-4" />
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function AddAffectedForm({ incidentId, excludeIds }: { incidentId: string; excludeIds: string[] }) {
  const { t } = useLingui();
  const id = useId();
  const add = useAddAffected(incidentId);
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const ticketIds = typedTicketIds(text).filter((ticketId) => ticketId !== incidentId);
    if (ticketIds.length === 0) {
      setError(t`Type a ticket's id (several, separated by spaces), or pick one by its title.`);
      return;
    }
    try {
      const result = await add.mutateAsync(ticketIds);
      if (result.linked.length > 0) toast.success(t`${result.linked.length} affected tickets added`);
      if (result.refused.length > 0) {
        setError(result.refused.map((refusal) => refusal.message).join(" "));
        setText(result.refused.map((refusal) => refusal.ticketId).join(" "));
      } else {
        setText("");
        setError(undefined);
      }
    } catch (failure) {
      setError(messageOf(failure, t`The tickets could not be added.`));
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="mt-4 flex flex-col gap-1.5" noValidate>
      <label htmlFor={`${id}-ticket`} className="text-sm font-medium text-slate-700">
        <Trans>Add affected tickets</Trans>
      </label>
      <TicketPicker
        id={`${id}-ticket`}
        value={text}
        onChange={(value) => {
          setText(value);
          setError(undefined);
        }}
        excludeIds={[incidentId, ...excludeIds]}
        error={error}
      />
      <div>
        <Button type="submit" size="sm" variant="secondary" disabled={add.isPending}>
          {add.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Add affected tickets</Trans>
        </Button>
      </div>
    </form>
  );
}

function PostUpdateForm({ incidentId }: { incidentId: string }) {
  const { t } = useLingui();
  const id = useId();
  const post = usePostIncidentUpdate(incidentId);
  const [body, setBody] = useState("");
  const [error, setError] = useState<string>();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (body.trim() === "") {
      setError(t`Write the update first.`);
      return;
    }
    try {
      const posted = await post.mutateAsync(body.trim());
      toast.success(t`Update posted on the incident and ${posted.postedOn} affected tickets`);
      setBody("");
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t`The update could not be posted.`));
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="mt-4 flex flex-col gap-1.5" noValidate>
      <label htmlFor={`${id}-update`} className="text-sm font-medium text-slate-700">
        <Trans>Post update</Trans>
      </label>
      <Textarea
        id={`${id}-update`}
        rows={3}
        value={body}
        invalid={error !== undefined}
        aria-describedby={error ? errorIdFor(`${id}-update`) : `${id}-update-hint`}
        onChange={(event) => {
          setBody(event.target.value);
          setError(undefined);
        }}
      />
      {error ? (
        <p id={errorIdFor(`${id}-update`)} className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-update-hint`} className="text-xs text-slate-500">
          <Trans>
            Public: posted on every affected ticket and sent to the people who follow the known issue.
          </Trans>
        </p>
      )}
      <div>
        <Button type="submit" size="sm" disabled={post.isPending}>
          <Trans>Post update</Trans>
        </Button>
      </div>
    </form>
  );
}

/** Declare the ticket a major incident, or (with `current`) change its headline. */
function DeclareForm({ ticketId, current }: { ticketId: string; current?: string }) {
  const { t } = useLingui();
  const id = useId();
  const declare = useDeclareIncident(ticketId);
  const [isOpen, setIsOpen] = useState(false);
  const [headline, setHeadline] = useState(current ?? "");
  const [error, setError] = useState<string>();
  const isChange = current !== undefined;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (headline.trim() === "") {
      setError(t`Write a headline: one public line, such as “VPN unavailable — we are working on it”.`);
      return;
    }
    try {
      await declare.mutateAsync(headline.trim());
      toast.success(isChange ? t`Headline changed` : t`Declared a major incident`);
      setIsOpen(false);
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t`The major incident could not be declared.`));
    }
  }

  if (!isOpen) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setIsOpen(true)}>
        {isChange ? <Trans>Change headline</Trans> : <Trans>Declare major incident</Trans>}
      </Button>
    );
  }
  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex w-full flex-col gap-1.5" noValidate>
      <label htmlFor={`${id}-headline`} className="text-sm font-medium text-slate-700">
        <Trans>Headline</Trans>
      </label>
      <Input
        id={`${id}-headline`}
        value={headline}
        maxLength={incidentHeadlineMaxLength}
        invalid={error !== undefined}
        aria-describedby={error ? errorIdFor(`${id}-headline`) : `${id}-headline-hint`}
        onChange={(event) => {
          setHeadline(event.target.value);
          setError(undefined);
        }}
      />
      {error ? (
        <p id={errorIdFor(`${id}-headline`)} className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-headline-hint`} className="text-xs text-slate-500">
          <Trans>One public line, shown to everyone raising a ticket while the incident is open.</Trans>
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={declare.isPending}>
          {isChange ? <Trans>Save headline</Trans> : <Trans>Declare major incident</Trans>}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setIsOpen(false)}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

function EndButton({ ticketId }: { ticketId: string }) {
  const { t } = useLingui();
  const end = useEndIncident(ticketId);
  async function handleEnd() {
    try {
      await end.mutateAsync();
      toast.success(t`The major incident was ended`);
    } catch (failure) {
      toast.error(messageOf(failure, t`The major incident could not be ended.`));
    }
  }
  return (
    <Button variant="ghost" size="sm" disabled={end.isPending} onClick={() => void handleEnd()}>
      <Trans>End major incident</Trans>
    </Button>
  );
}
