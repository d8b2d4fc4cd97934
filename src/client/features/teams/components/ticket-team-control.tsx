import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { teamListQuery, useChangeTicketTeam } from "#client/features/teams/teams.api.ts";
import { toast } from "#client/lib/toast.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

interface TicketTeamControlProps {
  actor: Actor;
  ticket: Ticket;
  /** The moved ticket, for the page to show (the ticket's caches are the tickets feature's). */
  onChanged: (ticket: Ticket) => void;
  /** A refusal: the page reads the ticket again. */
  onRefused: (error: Error) => void;
}

const noTeam = "";

/**
 * The ticket's team on its Details (decision 069): staff who may change it pick another team (or none)
 * and press Move; others read its name.
 */
export function TicketTeamControl({ actor, ticket, onChanged, onRefused }: TicketTeamControlProps) {
  const { t } = useLingui();
  const id = useId();
  const isHydrated = useHydrated();
  const canChange = can.changeTicketTeam(actor, ticket);
  const teams = useQuery({ ...teamListQuery(), enabled: canChange });
  const change = useChangeTicketTeam(ticket.ticketId);
  const current = ticket.teamId ?? noTeam;
  const [chosen, setChosen] = useState<{ from: string; value: string } | null>(null);
  // A choice made against another current team (someone moved it meanwhile) is dropped.
  const selected = chosen && chosen.from === current ? chosen.value : current;

  if (!canChange) return <>{ticket.teamName ?? t`No team`}</>;

  const options = [
    { value: noTeam, label: t`No team` },
    ...(teams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
  ];
  // Until the teams are read, the current one is still shown by its name.
  if (ticket.teamId && !options.some((option) => option.value === ticket.teamId)) {
    options.push({ value: ticket.teamId, label: ticket.teamName ?? ticket.teamId });
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected === current) return;
    try {
      const moved = await change.mutateAsync(selected === noTeam ? null : selected);
      setChosen(null);
      onChanged(moved);
      const name = moved.teamName;
      toast.success(name ? t`Ticket moved to team ${name}` : t`Ticket taken out of its team`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`The ticket could not be moved.`);
      onRefused(error instanceof Error ? error : new Error(String(error)));
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex items-center justify-end gap-2">
      <label htmlFor={id} className="sr-only">
        <Trans>Team</Trans>
      </label>
      <div className="min-w-0 max-w-48">
        <Select
          id={id}
          name="team"
          className="h-8 py-1 text-sm"
          options={options}
          value={selected}
          disabled={teams.isError}
          onChange={(event) => setChosen({ from: current, value: event.target.value })}
        />
      </div>
      {selected === current ? null : (
        <Button type="submit" size="sm" variant="secondary" disabled={!isHydrated || change.isPending}>
          {change.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Move</Trans>
        </Button>
      )}
    </form>
  );
}
