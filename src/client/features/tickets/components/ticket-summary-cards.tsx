import { useQuery } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import type { TicketSummary } from "#shared/tickets/ticket.schemas.ts";
import { StatCard } from "../../../components/ui/stat-card.tsx";
import { ticketSummaryQuery } from "../ticket.api.ts";

export interface SummaryCard {
  label: string;
  count: keyof TicketSummary;
  icon: LucideIcon;
  tone: "indigo" | "blue" | "amber" | "green" | "slate";
}

/** The dashboard counts (one aggregate call), each card naming which count it shows. */
export function TicketSummaryCards({ cards }: { cards: readonly SummaryCard[] }) {
  const { data } = useQuery(ticketSummaryQuery());
  return (
    <section aria-label="Ticket counts" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {cards.map((card) => (
        <StatCard
          key={card.label}
          label={card.label}
          value={data?.[card.count]}
          icon={card.icon}
          tone={card.tone}
        />
      ))}
    </section>
  );
}
