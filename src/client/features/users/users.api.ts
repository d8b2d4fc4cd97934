import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { Role, UserStatus } from "#shared/users/roles.ts";
import type {
  EditUserInput,
  InviteUserInput,
  ManagedUser,
  UserHistoryPage,
  UserPage,
  UserSort,
  UserSummary,
} from "#shared/users/user-management.schemas.ts";

export interface UserListFilters {
  /** Part of a name, e-mail address or department. */
  q?: string;
  role?: Role;
  status?: UserStatus;
  sort?: UserSort;
}

export const userKeys = {
  all: ["users"] as const,
  lists: () => [...userKeys.all, "list"] as const,
  list: (filters: UserListFilters) => [...userKeys.lists(), filters] as const,
  summary: () => [...userKeys.all, "summary"] as const,
  history: (userId: string) => [...userKeys.all, "history", userId] as const,
};

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

function listPath(
  { q, role, status, sort }: UserListFilters,
  cursor: string | null,
  base = "/api/admin/users",
) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (role) params.set("role", role);
  if (status) params.set("status", status);
  if (sort) params.set("sort", sort);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return `${base}${query ? `?${query}` : ""}`;
}

/** Every person of the list as filtered, as a CSV download (admins only). */
export const userExportPath = (filters: UserListFilters) =>
  listPath(filters, null, "/api/admin/users/export.csv");

/** 25 people a page; "Load more" follows nextCursor. */
export const userListQuery = (filters: UserListFilters) =>
  infiniteQueryOptions({
    queryKey: userKeys.list(filters),
    queryFn: ({ pageParam, signal }) => apiFetch<UserPage>(listPath(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

export const userSummaryQuery = () =>
  queryOptions({
    queryKey: userKeys.summary(),
    queryFn: ({ signal }) => apiFetch<UserSummary>("/api/admin/users/summary", { signal }),
  });

export const userHistoryQuery = (userId: string) =>
  infiniteQueryOptions({
    queryKey: userKeys.history(userId),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<UserHistoryPage>(
        `${userPath(userId)}/history${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

/** Lists, counts and the person's history all change with any edit. */
function refreshUsers(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: userKeys.all });
}

export function useEditUser(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditUserInput) =>
      apiFetch<ManagedUser>(userPath(userId), { method: "PATCH", body: input }),
    onSettled: () => refreshUsers(queryClient),
  });
}

export function useChangeUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, status }: { userId: string; status: UserStatus }) =>
      apiFetch<ManagedUser>(`${userPath(userId)}/status`, { method: "PUT", body: { status } }),
    onSettled: () => refreshUsers(queryClient),
  });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteUserInput) =>
      apiFetch<ManagedUser>("/api/admin/users", { method: "POST", body: input }),
    onSuccess: () => refreshUsers(queryClient),
  });
}

export function useSendPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiFetch<{ message: string }>(`${userPath(userId)}/password-reset`, { method: "POST" }),
    onSuccess: (_answer, userId) => queryClient.invalidateQueries({ queryKey: userKeys.history(userId) }),
  });
}
