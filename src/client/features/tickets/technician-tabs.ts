/**
 * The technician dashboard's tabs as its address holds them: All Tickets is the page without `?tab`, My
 * Tickets `?tab=mine`, Unassigned `?tab=unassigned` (each the list scope it shows). A reload, Back and a
 * shared link keep the tab; the server draws the one asked for (decision 052).
 */
export const technicianTabs = ["visible", "mine", "unassigned"] as const;
export type TechnicianTab = (typeof technicianTabs)[number];

/** ?tab=mine → "mine"; anything else is All Tickets. */
export const technicianTabFrom = (params: URLSearchParams): TechnicianTab =>
  technicianTabs.find((tab) => tab === params.get("tab")) ?? "visible";

/** The address with `tab` chosen, the other parameters (the order) kept. */
export function withTechnicianTab(params: URLSearchParams, tab: TechnicianTab): URLSearchParams {
  const next = new URLSearchParams(params);
  if (tab === "visible") next.delete("tab");
  else next.set("tab", tab);
  return next;
}
