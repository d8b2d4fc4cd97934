import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { DepartmentList } from "#shared/departments/department.schemas.ts";
import { authProvidersQueryKey } from "#shared/page-rendering/server-config.ts";
import type {
  AdminChangeArea,
  AdminChangePage,
  SettingAreaName,
  SettingEnvelope,
} from "#shared/settings/settings.schemas.ts";
import type { AuthProviders } from "#shared/users/user.schemas.ts";

export const settingsKeys = {
  all: ["admin-settings"] as const,
  area: (area: SettingAreaName) => [...settingsKeys.all, "area", area] as const,
  histories: () => [...settingsKeys.all, "history"] as const,
  history: (area?: AdminChangeArea) => [...settingsKeys.histories(), area ?? "all"] as const,
  /** What every signed-in person reads of the settings: the departments offered on forms. */
  departments: ["departments"] as const,
};

const areaPath = (area: SettingAreaName) => `/api/admin/settings/${area}`;

/** One settings area as stored (or its default), with who changed it last. Admins only. */
export const settingQuery = <T>(area: SettingAreaName) =>
  queryOptions({
    queryKey: settingsKeys.area(area),
    queryFn: ({ signal }) => apiFetch<SettingEnvelope<T>>(areaPath(area), { signal }),
  });

/** Saves an area; the area and the history are read again afterwards. */
export function useSaveSetting<T>(area: SettingAreaName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: T) => apiFetch<SettingEnvelope<T>>(areaPath(area), { method: "PUT", body: value }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.area(area), saved);
      if (area === "departments") void queryClient.invalidateQueries({ queryKey: settingsKeys.departments });
      // Every filtered view of the history too.
      return queryClient.invalidateQueries({ queryKey: settingsKeys.histories() });
    },
  });
}

/** The admin change history, newest first, 50 a page. */
export const adminChangesQuery = (area?: AdminChangeArea) =>
  infiniteQueryOptions({
    queryKey: settingsKeys.history(area),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (area) params.set("area", area);
      if (pageParam) params.set("cursor", pageParam);
      const query = params.toString();
      return apiFetch<AdminChangePage>(`/api/admin/settings/history${query ? `?${query}` : ""}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

/** The departments offered on the create form and in user management (every signed-in person). */
export const departmentsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.departments,
    queryFn: ({ signal }) => apiFetch<DepartmentList>("/api/departments", { signal }),
  });

const noDepartments: readonly string[] = [];

/**
 * The department names to suggest, once loaded (none until then, or when they cannot be read: the
 * field takes free text either way). `isNeeded` false skips the request while no form is open.
 */
export function useDepartmentNames(isNeeded = true): readonly string[] {
  const query = useQuery({ ...departmentsQuery(), enabled: isNeeded });
  return query.data?.departments ?? noDepartments;
}

/**
 * Which sign-in methods this server offers, under the key the sign-in pages use (the server's first paint
 * fills it, decision 061): Admin settings › Single sign-on says when no OIDC provider is configured.
 */
export const signInMethodsQuery = queryOptions({
  queryKey: authProvidersQueryKey,
  queryFn: ({ signal }) => apiFetch<AuthProviders>("/api/auth/providers", { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});
