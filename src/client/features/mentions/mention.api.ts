import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { StaffMember } from "#shared/mentions/mention.schemas.ts";

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

/** The staff directory's first 50 by name: whom an automation rule may notify (decision 076). */
export const staffDirectoryQuery = () =>
  queryOptions({
    queryKey: mentionKeys.staff(""),
    queryFn: ({ signal }) => apiFetch<StaffMember[]>("/api/staff?limit=50", { signal }),
    staleTime: 30_000,
  });
