import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  Article,
  ArticleDiff,
  ArticleDraftFromTicket,
  ArticleList,
  ArticleRevisionList,
  ArticleStats,
  CreateArticleInput,
  ListArticlesQuery,
  UpdateArticleInput,
} from "#shared/articles/article.schemas.ts";

export const articleKeys = {
  all: ["articles"] as const,
  list: (query: ListArticlesQuery) => [...articleKeys.all, "list", query] as const,
  suggestions: (q: string) => [...articleKeys.all, "suggestions", q] as const,
  detail: (id: number) => [...articleKeys.all, "detail", id] as const,
  revisions: (id: number) => [...articleKeys.all, "revisions", id] as const,
  diff: (id: number, from: number, to: number) => [...articleKeys.all, "diff", id, from, to] as const,
  stats: () => [...articleKeys.all, "stats"] as const,
  fromTicket: (ticketId: string) => [...articleKeys.all, "from-ticket", ticketId] as const,
};

const basePath = "/api/articles";
const articlePath = (id: number) => `${basePath}/${id}`;

const toSearch = (query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
};

/** The article list as pages of 25; the next page is asked for by its number (see articleMaxPages). */
export const articleListQuery = (query: Omit<ListArticlesQuery, "page">) =>
  infiniteQueryOptions({
    queryKey: articleKeys.list(query),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<ArticleList>(
        `${basePath}${toSearch({ ...query, page: pageParam > 1 ? String(pageParam) : undefined })}`,
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage,
    placeholderData: keepPreviousData,
  });

export const articleSuggestionsQuery = (q: string) =>
  queryOptions({
    queryKey: articleKeys.suggestions(q),
    queryFn: ({ signal }) => apiFetch<ArticleList>(`${basePath}/suggestions${toSearch({ q })}`, { signal }),
    enabled: q.trim().length >= 3,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

export const articleQuery = (id: number) =>
  queryOptions({
    queryKey: articleKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<Article>(articlePath(id), { signal }),
  });

export const articleRevisionsQuery = (id: number) =>
  queryOptions({
    queryKey: articleKeys.revisions(id),
    queryFn: ({ signal }) => apiFetch<ArticleRevisionList>(`${articlePath(id)}/revisions`, { signal }),
  });

export const articleDiffQuery = (id: number, from: number, to: number) =>
  queryOptions({
    queryKey: articleKeys.diff(id, from, to),
    queryFn: ({ signal }) =>
      apiFetch<ArticleDiff>(`${articlePath(id)}/diff?from=${from}&to=${to}`, { signal }),
    enabled: from !== to,
  });

export const articleStatsQuery = () =>
  queryOptions({
    queryKey: articleKeys.stats(),
    queryFn: ({ signal }) => apiFetch<ArticleStats>(`${basePath}/stats`, { signal }),
  });

export const articleDraftFromTicketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: articleKeys.fromTicket(ticketId),
    queryFn: ({ signal }) =>
      apiFetch<ArticleDraftFromTicket>(`${basePath}/from-ticket/${encodeURIComponent(ticketId)}`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useSaveArticle(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateArticleInput | UpdateArticleInput) =>
      id === null
        ? apiFetch<Article>(basePath, { method: "POST", body: input })
        : apiFetch<Article>(articlePath(id), { method: "PATCH", body: input }),
    onSuccess: async (article) => {
      queryClient.setQueryData(articleKeys.detail(article.id), article);
      await queryClient.invalidateQueries({ queryKey: articleKeys.all });
    },
  });
}

export function useVoteOnArticle(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (helpful: boolean) =>
      apiFetch<Article>(`${articlePath(id)}/vote`, { method: "PUT", body: { helpful } }),
    onSuccess: (article) => queryClient.setQueryData(articleKeys.detail(id), article),
  });
}

/** The create form's visit opened a suggestion: recorded before the article opens (see decision 030). */
export const recordSuggestionOpened = (id: number, formVisit: string) =>
  apiFetch<{ ok: true }>(`${articlePath(id)}/suggestion-opens`, { method: "POST", body: { formVisit } });

/** The form visit ended without a ticket; keepalive lets it finish while the tab closes. */
export const reportFormLeft = (formVisit: string) =>
  apiFetch<{ deflections: number }>(`${basePath}/deflections`, {
    method: "POST",
    body: { formVisit },
    keepalive: true,
  }).catch(() => undefined);
