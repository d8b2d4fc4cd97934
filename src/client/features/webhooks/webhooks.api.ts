import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  CreateWebhookInput,
  UpdateWebhookInput,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookList,
  WebhookTestResult,
  WebhookWithSecret,
} from "#shared/webhooks/webhook.schemas.ts";

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => [...webhookKeys.all, "list"] as const,
  deliveries: (webhookId: string) => [...webhookKeys.all, "deliveries", webhookId] as const,
};

const basePath = "/api/admin/webhooks";
const pathOf = (id: string) => `${basePath}/${encodeURIComponent(id)}`;

export const webhookListQuery = () =>
  queryOptions({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) => apiFetch<WebhookList>(basePath, { signal }),
    select: (list) => list.items,
  });

/** One endpoint's deliveries, newest first, 25 a page. */
export const webhookDeliveriesQuery = (webhookId: string) =>
  infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<WebhookDeliveryPage>(
        `${pathOf(webhookId)}/deliveries${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export const useCreateWebhook = () =>
  useRefreshAfter((input: CreateWebhookInput) =>
    apiFetch<WebhookWithSecret>(basePath, { method: "POST", body: input }),
  );

export const useUpdateWebhook = () =>
  useRefreshAfter(({ id, input }: { id: string; input: UpdateWebhookInput }) =>
    apiFetch<Webhook>(pathOf(id), { method: "PATCH", body: input }),
  );

export const useDeleteWebhook = () =>
  useRefreshAfter((id: string) => apiFetch<void>(pathOf(id), { method: "DELETE" }));

export const useRotateWebhookSecret = () =>
  useRefreshAfter((id: string) =>
    apiFetch<WebhookWithSecret>(`${pathOf(id)}/rotate-secret`, { method: "POST" }),
  );

export const useRedeliverWebhook = () =>
  useRefreshAfter(({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
    apiFetch<WebhookDelivery>(`${pathOf(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {
      method: "POST",
    }),
  );

/**
 * "Send test" (decision 080): the server POSTs a signed test event now and answers how it went. Nothing is
 * stored, so nothing is refreshed.
 */
export const useSendTestWebhook = () =>
  useMutation({
    mutationFn: (id: string) => apiFetch<WebhookTestResult>(`${pathOf(id)}/test`, { method: "POST" }),
  });
