import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ExternalLink, History, Pencil } from "lucide-react";
import { useEffect } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { NotAvailable } from "#client/components/ui/not-available.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { PageSpinner } from "#client/components/ui/spinner.tsx";
import { articleQuery } from "#client/features/articles/articles.api.ts";
import { ArticleBody } from "#client/features/articles/components/article-body.tsx";
import { HelpfulVote } from "#client/features/articles/components/helpful-vote.tsx";
import { isApiError } from "#client/lib/api-client.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { i18n } from "#client/lib/i18n.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { articleIdFromSlug, articlePath } from "#shared/articles/article-slug.ts";
import { can } from "#shared/permissions.ts";

/** /kb/:slug: one article. The id at the end of the slug finds it; an old slug is replaced by the current one. */
export default function HelpArticlePage() {
  const { t } = useLingui();
  const { slug = "" } = useParams();
  const id = articleIdFromSlug(slug);
  const navigate = useNavigate();
  const actor = useActor();
  const article = useQuery({ ...articleQuery(id ?? 0), enabled: id !== null });

  useEffect(() => {
    if (article.data && article.data.slug !== slug)
      navigate(articlePath(article.data.slug), { replace: true });
  }, [article.data, slug, navigate]);

  if (id === null || isApiError(article.error, 404)) {
    return (
      <NotAvailable
        title={t`Article not found`}
        description={t`This article does not exist or is not available to you.`}
      />
    );
  }
  if (article.isPending) return <PageSpinner label={t`Loading article`} />;
  if (article.isError)
    return (
      <LoadFailed
        layout="block"
        message={t`Could not load the article.`}
        onRetry={() => void article.refetch()}
      />
    );

  const data = article.data;
  const isStaff = actor ? can.writeArticles(actor) : false;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/kb" className="text-indigo-700 hover:underline">
          <Trans>← Help Articles</Trans>
        </Link>
      </p>
      <PageHeader
        title={data.title}
        description={
          data.authorName
            ? t`Updated ${formatDateTime(data.updatedAt)} · by ${data.authorName}`
            : t`Updated ${formatDateTime(data.updatedAt)}`
        }
        actions={
          isStaff ? (
            <>
              <Link to={`${articlePath(data.slug)}/history`} className={buttonClass("secondary")}>
                <History aria-hidden="true" className="size-4" /> <Trans>History</Trans>
              </Link>
              <Link to={`${articlePath(data.slug)}/edit`} className={buttonClass("primary")}>
                <Pencil aria-hidden="true" className="size-4" /> <Trans>Edit</Trans>
              </Link>
            </>
          ) : null
        }
      />
      <Card className="space-y-4 p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="slate">{i18n._(categoryLabels[data.category])}</Badge>
          {data.status === "draft" ? (
            <Badge tone="amber">
              <Trans>Draft</Trans>
            </Badge>
          ) : null}
          {data.visibility === "internal" ? (
            <Badge tone="indigo">
              <Trans>Internal</Trans>
            </Badge>
          ) : null}
          {data.tags.map((tag) => (
            <Badge key={tag} tone="blue">
              {tag}
            </Badge>
          ))}
          <span className="text-xs text-slate-500">
            {plural(data.views, { one: "# view", other: "# views" })}
          </span>
        </div>
        <ArticleBody html={data.html} />
        {data.status === "published" ? <HelpfulVote article={data} /> : null}
        {isStaff ? (
          <p className="flex items-center gap-1 text-xs text-slate-500">
            <ExternalLink aria-hidden="true" className="size-3" />{" "}
            <Trans>
              Link to it from a comment by pasting <code>{articlePath(data.slug)}</code>
            </Trans>
          </p>
        ) : null}
      </Card>
    </>
  );
}
