import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { BarChart3, Plus, Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button, buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Field, Input } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { articleListQuery } from "#client/features/articles/articles.api.ts";
import { ArticleList } from "#client/features/articles/components/article-list.tsx";
import { Link } from "#client/lib/router/links.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { useDebouncedValue } from "#client/lib/use-debounced-value.ts";
import type { ArticleSort } from "#shared/articles/article.schemas.ts";
import { can } from "#shared/permissions.ts";
import { type TicketCategory, ticketCategories } from "#shared/tickets/ticket.schemas.ts";

const sortLabels: Record<ArticleSort, MessageDescriptor> = {
  relevance: msg`Best match`,
  recent: msg`Recently updated`,
  "most-viewed": msg`Most viewed`,
};

/** /kb: search and browse the help articles (decision 030); staff also see drafts and internal articles. */
export default function HelpArticlesPage() {
  const { t, i18n } = useLingui();
  const id = useId();
  const actor = useActor();
  const isStaff = actor ? can.writeArticles(actor) : false;
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get("q") ?? "");
  const q = useDebouncedValue(text.trim(), 300);
  const category = (ticketCategories as readonly string[]).includes(params.get("category") ?? "")
    ? (params.get("category") as TicketCategory)
    : undefined;
  const sortParam = params.get("sort");
  const sort: ArticleSort =
    sortParam === "most-viewed" || sortParam === "recent" ? sortParam : q ? "relevance" : "recent";

  useEffect(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (q) next.set("q", q);
        else next.delete("q");
        return next;
      },
      { replace: true },
    );
  }, [q, setParams]);

  const setParam = (key: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const list = useInfiniteQuery(articleListQuery({ q: q || undefined, category, sort }));
  const sortOptions = (
    q ? (["relevance", "recent", "most-viewed"] as const) : (["recent", "most-viewed"] as const)
  ).map((value) => ({ value, label: i18n._(sortLabels[value]) }));

  return (
    <>
      <PageHeader
        title={t`Help Articles`}
        description={t`Answers to common questions. Search before you raise a ticket.`}
        actions={
          isStaff ? (
            <>
              <Link to="/kb/stats" className={buttonClass("secondary")}>
                <BarChart3 aria-hidden="true" className="size-4" /> {t`Figures`}
              </Link>
              <Link to="/kb/new" className={buttonClass("primary")}>
                <Plus aria-hidden="true" className="size-4" /> {t`New article`}
              </Link>
            </>
          ) : null
        }
      />
      <Card>
        <div className="grid grid-cols-1 gap-3 border-b border-slate-100 px-5 py-4 sm:grid-cols-4">
          <Field label={t`Search articles`} htmlFor={`${id}-search`} className="sm:col-span-2">
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              />
              <Input
                id={`${id}-search`}
                type="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder={t`e.g. VPN, password, printer`}
                className="pl-9"
              />
            </div>
          </Field>
          <Field label={t`Category`} htmlFor={`${id}-category`}>
            <Select
              id={`${id}-category`}
              value={category ?? ""}
              options={[
                { value: "", label: t`All categories` },
                ...labelledOptions(ticketCategories, categoryLabels),
              ]}
              onChange={(event) => setParam("category", event.target.value || undefined)}
            />
          </Field>
          <Field label={t`Sort`} htmlFor={`${id}-sort`}>
            <Select
              id={`${id}-sort`}
              value={sort}
              options={sortOptions}
              onChange={(event) =>
                setParam("sort", event.target.value === "relevance" ? undefined : event.target.value)
              }
            />
          </Field>
        </div>
        {list.isPending ? (
          <div className="px-5 py-8">
            <Spinner label={t`Loading articles`} />
          </div>
        ) : list.isError ? (
          <LoadFailed
            layout="block"
            message={t`Could not load the articles.`}
            onRetry={() => void list.refetch()}
          />
        ) : (
          <>
            <ArticleList
              items={list.data.pages.flatMap((page) => page.items)}
              emptyTitle={q ? t`No article matches your search` : t`No articles yet`}
            />
            {list.hasNextPage ? (
              <div className="border-t border-slate-100 px-5 py-4 text-center">
                <Button
                  variant="secondary"
                  disabled={list.isFetchingNextPage}
                  onClick={() => void list.fetchNextPage()}
                >
                  {list.isFetchingNextPage ? t`Loading…` : t`Show more articles`}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </>
  );
}
