import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { PageSpinner } from "#client/components/ui/spinner.tsx";
import { articleDraftFromTicketQuery, articleQuery } from "#client/features/articles/articles.api.ts";
import { ArticleForm, type ArticleFormValues } from "#client/features/articles/components/article-form.tsx";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { useNavigate, useSearchParams } from "#client/lib/router/router.tsx";
import { articleIdFromSlug, articlePath } from "#shared/articles/article-slug.ts";

const blank: ArticleFormValues = {
  title: "",
  body: "",
  category: "Other",
  tags: [],
  status: "draft",
  visibility: "public",
};

/** /kb/new (optionally ?fromTicket=TKT… from a solved ticket) and /kb/:slug/edit: staff only. */
export default function HelpArticleEditorPage() {
  const { t } = useLingui();
  const { slug } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = slug ? articleIdFromSlug(slug) : null;
  const fromTicket = params.get("fromTicket");
  const existing = useQuery({ ...articleQuery(id ?? 0), enabled: id !== null });
  const draft = useQuery({
    ...articleDraftFromTicketQuery(fromTicket ?? ""),
    enabled: id === null && fromTicket !== null,
  });

  const source = id !== null ? existing : fromTicket ? draft : null;
  if (source?.isPending) return <PageSpinner label={t`Loading`} />;
  if (source?.isError) {
    return <LoadFailed layout="block" message={source.error.message} onRetry={() => void source.refetch()} />;
  }
  const initial: ArticleFormValues =
    id !== null && existing.data ? existing.data : draft.data ? { ...blank, ...draft.data } : blank;

  return (
    <>
      <PageHeader
        title={id === null ? t`New article` : t`Edit article`}
        description={t`Markdown: # headings, **bold**, lists, \`code\`, [links](https://…) and images. Every save keeps a revision.`}
      />
      <Card className="p-6">
        <ArticleForm
          articleId={id}
          initial={initial}
          onSaved={(article) => navigate(articlePath(article.slug))}
          onCancel={() => navigate(id !== null && existing.data ? articlePath(existing.data.slug) : "/kb")}
        />
      </Card>
    </>
  );
}
