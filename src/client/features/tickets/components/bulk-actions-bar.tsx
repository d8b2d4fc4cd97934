import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { type Ref, useEffect, useId, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Select } from "#client/components/ui/select.tsx";
import {
  macroChoicesQuery,
  openIncidentChoicesQuery,
  technicianListQuery,
  useBulkApplyMacro,
  useBulkChangeTickets,
  useBulkLinkToIncident,
} from "#client/features/tickets/ticket.api.ts";
import { priorityLabels, statusLabels } from "#client/features/tickets/ticket-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import type { Actor } from "#shared/permissions.ts";
import type { BulkAction, BulkResult } from "#shared/tickets/ticket-bulk.ts";
import { ticketPriorities } from "#shared/tickets/ticket-priority.ts";
import { changeableStatuses } from "#shared/tickets/ticket-status.ts";

interface BulkActionsBarProps {
  actor: Actor;
  /** The tickets on the page (every page loaded so far) and which of them are ticked. */
  ticketIds: string[];
  selectedIds: string[];
  onSelectAll: (isSelected: boolean) => void;
  /** After the server answered: the list clears the selection. */
  onApplied: () => void;
}

/** The option's value names the action: "status:Resolved", "priority:High", "assign:<id>", "queue", "assignToMe". */
function actionOf(value: string): BulkAction | null {
  const [kind = "", rest = ""] = value.split(/:(.*)/s);
  // bulkActionSchema's rules, checked by hand: the bar is on a technician's first screen, zod is not (decision 031).
  const status = changeableStatuses.find((candidate) => candidate === rest);
  const priority = ticketPriorities.find((candidate) => candidate === rest);
  if (kind === "status") return status ? { kind, status } : null;
  if (kind === "priority") return priority ? { kind, priority } : null;
  if (kind === "assign") return rest ? { kind, assigneeId: rest } : null;
  if (kind === "queue") return { kind: "assign", assigneeId: null };
  if (kind === "assignToMe") return { kind };
  return null;
}

/**
 * Decision 015: tick tickets, choose one action, apply it to all. The server decides each ticket by the
 * single action's rules; the bar says how many changed and, for the others, why not. The choices mirror
 * can.assignToSelf (technicians) and can.returnToQueue (admins); the rest is decided per ticket.
 */
export function BulkActionsBar({
  actor,
  ticketIds,
  selectedIds,
  onSelectAll,
  onApplied,
}: BulkActionsBarProps) {
  const id = useId();
  const [choice, setChoice] = useState("");
  const [result, setResult] = useState<BulkResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const bulk = useBulkChangeTickets();
  const bulkMacro = useBulkApplyMacro();
  const technicians = useQuery(technicianListQuery());
  const macros = useQuery(macroChoicesQuery());
  const bulkLink = useBulkLinkToIncident();
  const incidents = useQuery(openIncidentChoicesQuery());
  const isPending = bulk.isPending || bulkMacro.isPending || bulkLink.isPending;
  const selectedCount = selectedIds.length;
  const allSelected = ticketIds.length > 0 && selectedCount === ticketIds.length;
  const selectAll = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selectedCount > 0 && !allSelected;
  }, [selectedCount, allSelected]);

  // The selection is gone after an action: the answer takes the focus, so it is read out and nothing is lost.
  useEffect(() => {
    if (result) outcomeRef.current?.focus();
    else if (failure) resultRef.current?.focus();
  }, [result, failure]);

  const options = [
    { value: "", label: t`Choose an action…` },
    ...changeableStatuses.map((status) => {
      const label = i18n._(statusLabels[status]);
      return { value: `status:${status}`, label: t`Set status: ${label}` };
    }),
    ...ticketPriorities.map((priority) => {
      const label = i18n._(priorityLabels[priority]);
      return { value: `priority:${priority}`, label: t`Set priority: ${label}` };
    }),
    ...(actor.role === "technician" ? [{ value: "assignToMe", label: t`Assign to me` }] : []),
    ...(technicians.data ?? [])
      .filter((technician) => technician.id !== actor.id)
      .map(({ id: technicianId, name }) => ({
        value: `assign:${technicianId}`,
        label: t`Assign to ${name}`,
      })),
    ...(actor.role === "admin" ? [{ value: "queue", label: t`Return to queue` }] : []),
    // Decision 075: a macro's reply and changes on each ticket, decided per ticket as on its page.
    ...(macros.data ?? []).map(({ id: macroId, title }) => ({
      value: `macro:${macroId}`,
      label: t`Apply macro: ${title}`,
    })),
    // Decision 077: the selected tickets become affected by an open major incident.
    ...(incidents.data?.items ?? []).map(({ ticketId, headline }) => ({
      value: `incident:${ticketId}`,
      label: t`Link to major incident: ${headline}`,
    })),
  ];

  const handleApply = async () => {
    const macroId = choice.startsWith("macro:") ? choice.slice("macro:".length) : null;
    const incidentId = choice.startsWith("incident:") ? choice.slice("incident:".length) : null;
    const action = actionOf(choice);
    if ((!action && !macroId && !incidentId) || selectedCount === 0) return;
    setResult(null);
    setFailure(null);
    try {
      setResult(
        incidentId
          ? await bulkLink.mutateAsync({ incidentId, ticketIds: selectedIds })
          : macroId
            ? await bulkMacro.mutateAsync({ ticketIds: selectedIds, macroId })
            : await bulk.mutateAsync({ ticketIds: selectedIds, action: action! }),
      );
      setChoice("");
      onApplied();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : t`The tickets could not be changed.`);
    }
  };

  // An empty list has nothing to tick; the bar stays mounted only to show the answer that emptied it.
  const isHydrated = useHydrated();
  if (ticketIds.length === 0 && !result && !failure) return null;

  return (
    <div className="flex flex-col gap-3 border-b border-slate-100 bg-slate-50/60 px-5 py-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            ref={selectAll}
            type="checkbox"
            className="size-4 rounded border-slate-300 accent-indigo-600"
            checked={allSelected}
            onChange={(event) => onSelectAll(event.target.checked)}
            // On a list drawn by the server, selecting needs the app's code: usable once it has the page.
            disabled={!isHydrated}
          />
          <Trans>Select all</Trans>
        </label>
        <span className="text-sm text-slate-500" aria-live="polite">
          <Trans>{selectedCount} selected</Trans>
        </span>
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <label htmlFor={`${id}-action`} className="sr-only">
            <Trans>Action for the selected tickets</Trans>
          </label>
          <div className="min-w-0 flex-1 sm:w-56 sm:flex-none">
            <Select
              id={`${id}-action`}
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              options={options}
            />
          </div>
          <Button
            size="md"
            onClick={() => void handleApply()}
            disabled={selectedCount === 0 || choice === "" || isPending}
          >
            {isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            <Trans>Apply</Trans>
          </Button>
        </div>
      </div>
      <div ref={resultRef} tabIndex={-1} className="focus:outline-none empty:hidden">
        {failure ? <Alert>{failure}</Alert> : null}
        {result ? <BulkOutcome ref={outcomeRef} result={result} /> : null}
      </div>
    </div>
  );
}

function BulkOutcome({ result, ref }: { result: BulkResult; ref: Ref<HTMLDivElement> }) {
  const { changed, refused } = result;
  const refusedCount = refused.length;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className={
        refused.length
          ? "rounded-lg border border-amber-200 focus:outline-none bg-amber-50 px-3 py-2 text-sm text-amber-900"
          : "rounded-lg border border-green-200 focus:outline-none bg-green-50 px-3 py-2 text-sm text-green-800"
      }
    >
      <p className="font-medium">
        {refused.length
          ? plural(changed.length, {
              one: `# ticket changed; ${refusedCount} not:`,
              other: `# tickets changed; ${refusedCount} not:`,
            })
          : plural(changed.length, { one: "# ticket changed.", other: "# tickets changed." })}
      </p>
      {refused.length ? (
        <ul className="mt-1 flex flex-col gap-0.5">
          {refused.map((refusal) => (
            <li key={refusal.ticketId} className="break-words">
              <span className="font-mono text-xs">{refusal.ticketId}</span>: {refusal.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
