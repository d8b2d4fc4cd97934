import { useQuery } from "@tanstack/react-query";
import { ShieldCheck, UserCheck, UserRound, Users, Wrench } from "lucide-react";
import type { UserSummary } from "#shared/users/user-management.schemas.ts";
import { type CountCard, StatCard } from "../../../components/ui/stat-card.tsx";
import { userSummaryQuery } from "../users.api.ts";

export type UserCountCard = CountCard<UserSummary>;

/** /admin/user-management: Total, Active, Technicians, Admins. */
export const managementCountCards: readonly UserCountCard[] = [
  { label: "Total", count: "total", icon: Users, tone: "indigo" },
  { label: "Active", count: "active", icon: UserCheck, tone: "green" },
  { label: "Technicians", count: "technicians", icon: Wrench, tone: "amber" },
  { label: "Admins", count: "admins", icon: ShieldCheck, tone: "slate" },
];

/** The admin Overview: total, regular users, technicians, admins. */
export const overviewCountCards: readonly UserCountCard[] = [
  { label: "Total Users", count: "total", icon: Users, tone: "indigo" },
  { label: "Users", count: "users", icon: UserRound, tone: "blue" },
  { label: "Technicians", count: "technicians", icon: Wrench, tone: "amber" },
  { label: "Admins", count: "admins", icon: ShieldCheck, tone: "slate" },
];

export function UserSummaryCards({ cards }: { cards: readonly UserCountCard[] }) {
  const { data } = useQuery(userSummaryQuery());
  return (
    <section aria-label="User counts" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
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
