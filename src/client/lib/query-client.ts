import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-client.ts";

/** Up to 2 retries, 2 s × attempt apart — only when the failure was the network or the server. */
const maxRetries = 2;

export function shouldRetry(failureCount: number, error: unknown) {
  if (failureCount >= maxRetries) return false;
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: (attempt) => 2000 * (attempt + 1),
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
