import { infiniteQueryOptions } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  InboundMessagePage,
  InboundOutcomeFilter,
} from "#shared/inbound-mail/inbound-message.schemas.ts";

// Decision 083: what became of received e-mail, administrators only.
export const inboundMailKeys = {
  all: ["inbound-mail"] as const,
  list: (outcome: InboundOutcomeFilter | undefined) => [...inboundMailKeys.all, outcome ?? "all"] as const,
};

export const inboundMessagesQuery = (outcome: InboundOutcomeFilter | undefined) =>
  infiniteQueryOptions({
    queryKey: inboundMailKeys.list(outcome),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (outcome) params.set("outcome", outcome);
      if (pageParam) params.set("cursor", pageParam);
      const query = params.toString();
      return apiFetch<InboundMessagePage>(`/api/admin/inbound-mail${query ? `?${query}` : ""}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
