/**
 * How a team gives its new tickets to its members (decision 069): not at all (they take them), in turn
 * (round robin), or to the member with the fewest open tickets. Members marked away are skipped.
 */
export const teamAssignmentModes = ["off", "round_robin", "least_open"] as const;
export type TeamAssignmentMode = (typeof teamAssignmentModes)[number];

/** The modes that give tickets out: what an automatic assignment records as how it chose (decision 073). */
export const autoAssignmentModes = [
  "round_robin",
  "least_open",
] as const satisfies readonly TeamAssignmentMode[];
export type AutoAssignmentMode = (typeof autoAssignmentModes)[number];

/** The order a team gives its tickets in: by person id, compared as plain text (the same on every machine). */
export const inTeamOrder = (ids: readonly string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Who a team gives a new ticket to (decision 073), of `members` — those who may get one: active
 * technicians who are not away. Their turn starts after `last`, who got the team's previous ticket (their
 * place in the id order holds even if they left or are away meanwhile), and goes round past the end.
 * Round robin takes the first in turn; least open the one with the fewest open tickets (`openCounts`,
 * Open and In Progress assigned to them), the first in turn among equals. Null when nobody may get it.
 */
export function chooseAssignee(
  mode: AutoAssignmentMode,
  members: readonly string[],
  last: string | null,
  openCounts: ReadonlyMap<string, number> = new Map(),
): string | null {
  const ordered = inTeamOrder(members);
  const after = last === null ? [] : ordered.filter((id) => id > last);
  const inTurn = [...after, ...ordered.filter((id) => last === null || id <= last)];
  if (mode === "round_robin") return inTurn[0] ?? null;
  let chosen: string | null = null;
  for (const id of inTurn) {
    if (chosen === null || (openCounts.get(id) ?? 0) < (openCounts.get(chosen) ?? 0)) chosen = id;
  }
  return chosen;
}
