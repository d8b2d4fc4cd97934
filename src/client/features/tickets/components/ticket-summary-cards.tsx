import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleDot, Clock, Ticket } from "lucide-react";
import { cn } from "#client/components/ui/cn.ts";
import { type CountCard, StatCard } from "#client/components/ui/stat-card.tsx";
import { ticketSummaryQuery } from "#client/features/tickets/ticket.api.ts";
import type { SummaryScope, TicketSummary } from "#shared/tickets/ticket.schemas.ts";

export type SummaryCard = CountCard<TicketSummary>;

/** Counts by status over what the person may see: the user dashboard's cards; admins add Closed. */
export const statusCountCards: readonly SummaryCard[] = [
  { label: msg`Total Tickets`, count: "total", icon: Ticket, tone: "indigo" },
  { label: msg`Open`, count: "open", icon: CircleDot, tone: "blue" },
  { label: msg`In Progress`, count: "inProgress", icon: Clock, tone: "amber" },
  { label: msg`Resolved`, count: "resolved", icon: CircleCheck, tone: "green" },
];

// Whole class names, so that Tailwind finds them.
const columns = { 4: "lg:grid-cols-4", 5: "lg:grid-cols-5" } as const;

interface TicketSummaryCardsProps {
  cards: readonly SummaryCard[];
  /** "created" on /user-home: only the tickets the person raised, whoever they are. */
  scope?: SummaryScope;
}

/** The dashboard counts (one aggregate call), each card naming which count it shows. */
export function TicketSummaryCards({ cards, scope = "visible" }: TicketSummaryCardsProps) {
  const { data } = useQuery(ticketSummaryQuery(scope));
  const { t, i18n } = useLingui();
  return (
    <section
      aria-label={t`Ticket counts`}
      className={cn("grid grid-cols-2 gap-3 sm:gap-4", cards.length === 5 ? columns[5] : columns[4])}
    >
      {cards.map((card) => (
        <StatCard
          key={String(card.count)}
          label={i18n._(card.label)}
          value={data?.[card.count] ?? undefined}
          icon={card.icon}
          tone={card.tone}
        />
      ))}
    </section>
  );
}
