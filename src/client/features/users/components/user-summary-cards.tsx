import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ShieldCheck, UserCheck, UserRound, Users, Wrench } from "lucide-react";
import { type CountCard, StatCard } from "#client/components/ui/stat-card.tsx";
import { userSummaryQuery } from "#client/features/users/users.api.ts";
import type { UserSummary } from "#shared/users/user-management.schemas.ts";

export type UserCountCard = CountCard<UserSummary>;

/** /admin/user-management: Total, Active, Technicians, Admins. */
export const managementCountCards: readonly UserCountCard[] = [
  { label: msg`Total`, count: "total", icon: Users, tone: "indigo" },
  { label: msg`Active`, count: "active", icon: UserCheck, tone: "green" },
  { label: msg`Technicians`, count: "technicians", icon: Wrench, tone: "amber" },
  { label: msg`Admins`, count: "admins", icon: ShieldCheck, tone: "slate" },
];

/** The admin Overview: total, regular users, technicians, admins. */
export const overviewCountCards: readonly UserCountCard[] = [
  { label: msg`Total Users`, count: "total", icon: Users, tone: "indigo" },
  { label: msg`Users`, count: "users", icon: UserRound, tone: "blue" },
  { label: msg`Technicians`, count: "technicians", icon: Wrench, tone: "amber" },
  { label: msg`Admins`, count: "admins", icon: ShieldCheck, tone: "slate" },
];

export function UserSummaryCards({ cards }: { cards: readonly UserCountCard[] }) {
  const { data } = useQuery(userSummaryQuery());
  const { t, i18n } = useLingui();
  return (
    <section aria-label={t`User counts`} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {cards.map((card) => (
        <StatCard
          key={String(card.count)}
          label={i18n._(card.label)}
          value={data?.[card.count]}
          icon={card.icon}
          tone={card.tone}
        />
      ))}
    </section>
  );
}
