/**
 * The technician dashboard's tabs as its address holds them: All Tickets is the page without `?tab`, My
 * Tickets `?tab=mine`, Unassigned `?tab=unassigned` (each the list scope it shows), and for a member of a
 * team "My team's unassigned" `?tab=team_unassigned` and "My team's" `?tab=team` (decision 073). A reload,
 * Back and a shared link keep the tab; the server draws the one asked for (decision 052).
 */
export const technicianTabs = ["visible", "mine", "unassigned", "team_unassigned", "team"] as const;
export type TechnicianTab = (typeof technicianTabs)[number];

/** The team tabs, shown only to someone in at least one team; /tickets offers them beside All as well. */
export const teamTabs = ["team_unassigned", "team"] as const satisfies readonly TechnicianTab[];
export type TeamTab = (typeof teamTabs)[number];
export const isTeamTab = (tab: string): tab is TeamTab => teamTabs.some((team) => team === tab);

/** The tabs of /tickets for staff in a team: All (no `?tab`) and the two team tabs. */
export const ticketsPageTabs = ["visible", ...teamTabs] as const;
export type TicketsPageTab = (typeof ticketsPageTabs)[number];

/** ?tab=mine → "mine"; anything else is All Tickets. */
export const technicianTabFrom = (params: URLSearchParams): TechnicianTab =>
  technicianTabs.find((tab) => tab === params.get("tab")) ?? "visible";

/** /tickets: ?tab=team → "team"; anything else (a technician home's tab too) is the whole list. */
export const ticketsPageTabFrom = (params: URLSearchParams): TicketsPageTab =>
  ticketsPageTabs.find((tab) => tab === params.get("tab")) ?? "visible";

/** The address with `tab` chosen, the other parameters (the order) kept. */
export function withTechnicianTab(params: URLSearchParams, tab: TechnicianTab): URLSearchParams {
  const next = new URLSearchParams(params);
  if (tab === "visible") next.delete("tab");
  else next.set("tab", tab);
  return next;
}
