import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { MySessionList, RevokedSessions } from "#shared/users/session.schemas.ts";

export const sessionKeys = { all: ["my-sessions"] as const };

const basePath = "/api/me/sessions";

/** The signed-in person's browsers, the most recently active first. */
export const mySessionsQuery = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => apiFetch<MySessionList>(basePath, { signal }),
    select: (list) => list.items,
  });

function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export const useRevokeSession = () =>
  useRefreshAfter((id: string) =>
    apiFetch<void>(`${basePath}/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );

export const useRevokeOtherSessions = () =>
  useRefreshAfter(() => apiFetch<RevokedSessions>(`${basePath}/revoke-others`, { method: "POST", body: {} }));

const browsers: Array<[RegExp, string]> = [
  [/Edg\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\//, "Firefox"],
  [/Chrom(e|ium)\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const systems: Array<[RegExp, string]> = [
  [/iPhone|iPad/, "iOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** "Firefox on Windows" from a User-Agent; null when neither is recognised (the raw string is shown then). */
export function describeUserAgent(userAgent: string | null): { browser: string; system: string } | null {
  if (!userAgent) return null;
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  return browser && system ? { browser, system } : null;
}
