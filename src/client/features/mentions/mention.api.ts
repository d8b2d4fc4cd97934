import { queryOptions } from "@tanstack/react-query";
import type { StaffMember } from "#shared/mentions/mention.schemas.ts";
import { apiFetch } from "../../lib/api-client.ts";

export const mentionKeys = {
  staff: (q: string) => ["staff", q] as const,
};

/** Active technicians and admins whose name contains `q`: the @-autocomplete's choices (staff only). */
export const staffQuery = (q: string) =>
  queryOptions({
    queryKey: mentionKeys.staff(q),
    queryFn: ({ signal }) =>
      apiFetch<StaffMember[]>(`/api/staff?q=${encodeURIComponent(q)}&limit=8`, { signal }),
    staleTime: 30_000,
  });
