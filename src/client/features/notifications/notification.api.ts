import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
// Type-only: the bell and the live stream load with the app shell, which must stay free of zod.
import type {
  CreateNotificationInput,
  Notification,
  NotificationCounts,
  NotificationFilter,
  NotificationPage,
  NotificationSettings,
  UnsubscribeResult,
} from "#shared/notifications/notification.schemas.ts";
import {
  fetchRetries,
  fetchRetryDelayMs,
  isRetryableFetchError,
} from "#shared/notifications/notification-alerts.ts";

export const notificationKeys = {
  all: ["notifications"] as const,
  lists: () => [...notificationKeys.all, "list"] as const,
  list: (filter: NotificationFilter) => [...notificationKeys.lists(), filter] as const,
  counts: () => [...notificationKeys.all, "counts"] as const,
  settings: () => [...notificationKeys.all, "settings"] as const,
};

/** Up to 2 retries, 2 s × attempt apart, and only for network, connection or QUIC failures. */
const retryPolicy = {
  retry: (failureCount: number, error: Error) =>
    failureCount < fetchRetries && isRetryableFetchError(error.message),
  retryDelay: (failureCount: number) => fetchRetryDelayMs(failureCount + 1),
};

const listPath = (filter: NotificationFilter, cursor: string | null) => {
  const params = new URLSearchParams({ filter });
  if (cursor) params.set("cursor", cursor);
  return `/api/notifications?${params}`;
};

/** The caller's notifications, newest first, 25 a page; "Load more" follows nextCursor. */
export const notificationListQuery = (filter: NotificationFilter) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(filter),
    queryFn: ({ pageParam, signal }) => apiFetch<NotificationPage>(listPath(filter, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    // The live stream says when something changed; without it, polling takes over (see live-updates).
    staleTime: Number.POSITIVE_INFINITY,
    ...retryPolicy,
  });

/** The tab counts of /notifications and the bell's badge (unread). */
export const notificationCountsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.counts(),
    queryFn: ({ signal }) => apiFetch<NotificationCounts>("/api/notifications/counts", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    ...retryPolicy,
  });

export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => apiFetch<NotificationSettings>("/api/me/notification-settings", { signal }),
    ...retryPolicy,
  });

/** Lists and counts read again (a notification arrived, or one was marked read). */
export const refreshNotifications = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: notificationKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.counts() }),
  ]);

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notificationId: string) =>
      apiFetch<Notification>(`/api/notifications/${encodeURIComponent(notificationId)}/read`, {
        method: "POST",
      }),
    onSuccess: () => refreshNotifications(queryClient),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ updated: number }>("/api/notifications/read-all", { method: "POST" }),
    onSuccess: () => refreshNotifications(queryClient),
  });
}

/** /debug-notifications: a notification for oneself (the server checks it: docs/security.md). */
export function useCreateNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { uid: string; message: string; type?: CreateNotificationInput["type"] }) =>
      apiFetch<Notification>("/api/notifications", { method: "POST", body: input }),
    onSuccess: () => refreshNotifications(queryClient),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) =>
      apiFetch<NotificationSettings>("/api/me/notification-settings", { method: "PUT", body: settings }),
    onSuccess: (settings) => queryClient.setQueryData(notificationKeys.settings(), settings),
  });
}

/** The mailed unsubscribe link's page: no session needed, the signed token says who and which type. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) =>
      apiFetch<UnsubscribeResult>("/api/notifications/unsubscribe", { method: "POST", body: { token } }),
  });
}
