import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { useQuery } from "@tanstack/react-query";
import { isTeamTab, type TeamTab } from "#client/features/tickets/technician-tabs.ts";
import { teamQueuesQuery } from "#client/features/tickets/ticket.api.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";

const teamTabLabels = {
  team_unassigned: msg`My team's unassigned`,
  team: msg`My team's`,
} as const;

/**
 * The team tabs of a list page (decision 073), for staff: "My team's unassigned" and "My team's", each with
 * its count (GET /api/tickets/queues), drawn after the page's own tabs so that those never move. Only for
 * someone in at least one team; with no team, nothing (the page is as it was). While the counts load, a
 * team tab the address asks for is kept, without its count, so the list is the one asked for; once they
 * say the person is in no team, `scopeOf` turns it into the whole list. The server draws the page with the
 * counts in (the start state, start-route.ts, or the renderer's next pass), so nothing moves on hydration.
 */
export function useTeamTabs(current: string) {
  const { i18n } = useLingui();
  const actor = useActor();
  const isStaff = actor ? can.listByTeam(actor) : false;
  const queues = useQuery({ ...teamQueuesQuery(), enabled: isStaff });
  const mine = queues.data?.mine ?? null;
  // Not known yet (who is asking, or their teams): a team tab the address names stays until it is.
  const isUnknown = actor === undefined || (isStaff && queues.isPending);
  const isShown = (isStaff && mine !== null) || (isUnknown && isTeamTab(current));
  const countOf = (tab: TeamTab) => {
    const count = tab === "team" ? mine?.all : mine?.unassigned;
    return count ? `${i18n.number(count.count)}${count.capped ? "+" : ""}` : undefined;
  };
  const tabs = isShown
    ? (["team_unassigned", "team"] as const).map((tab) => ({
        value: tab,
        label: i18n._(teamTabLabels[tab]),
        count: countOf(tab),
      }))
    : [];
  return {
    tabs,
    /** Every team by name (the Team filter); empty until known, and for those who do not see teams. */
    teams: isStaff ? (queues.data?.teams ?? []) : [],
    /** The list's scope for `tab`: a team tab the person does not have is the whole list. */
    scopeOf: <T extends string>(tab: T): T | "visible" => (isTeamTab(tab) && !isShown ? "visible" : tab),
  };
}
