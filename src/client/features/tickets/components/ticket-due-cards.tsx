import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { AlarmClock, TriangleAlert } from "lucide-react";
import { StatCard } from "#client/components/ui/stat-card.tsx";
import { ticketSummaryQuery } from "#client/features/tickets/ticket.api.ts";
import { Link } from "#client/lib/router/links.tsx";

const dueCards = [
  { label: msg`Overdue`, count: "overdue", due: "overdue", icon: TriangleAlert, tone: "amber" },
  { label: msg`Due soon`, count: "dueSoon", due: "due_soon", icon: AlarmClock, tone: "blue" },
] as const;

/**
 * Staff dashboards (decision 019): running service-level targets past due and due soon, from the same
 * aggregate call as the other counts; each opens the ticket list with that filter.
 */
export function TicketDueCards() {
  const { t, i18n } = useLingui();
  const { data } = useQuery(ticketSummaryQuery("visible"));
  return (
    <section aria-label={t`Service level counts`} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {dueCards.map((card) => (
        <Link
          key={card.due}
          to={`/tickets?due=${card.due}&sort=due`}
          className="rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 [&>*]:transition-shadow [&>*]:hover:shadow-md"
        >
          <StatCard
            label={i18n._(card.label)}
            value={data?.[card.count] ?? undefined}
            icon={card.icon}
            tone={card.tone}
          />
          {/* The name is the card's own text ("Overdue 3") and then this: what is seen is what is said. */}
          <span className="sr-only">
            <Trans>, open the list</Trans>
          </span>
        </Link>
      ))}
    </section>
  );
}
