import { Trans, useLingui } from "@lingui/react/macro";
import { Card } from "#client/components/ui/card.tsx";
import { NotAvailable } from "#client/components/ui/not-available.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { ArticleHistory } from "#client/features/articles/components/article-history.tsx";
import { Link } from "#client/lib/router/links.tsx";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { articleIdFromSlug, articlePath } from "#shared/articles/article-slug.ts";

/** /kb/:slug/history: staff see every revision and what changed between two. */
export default function HelpArticleHistoryPage() {
  const { t } = useLingui();
  const { slug = "" } = useParams();
  const id = articleIdFromSlug(slug);
  if (id === null)
    return <NotAvailable title={t`Article not found`} description={t`This article does not exist.`} />;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={articlePath(slug)} className="text-indigo-700 hover:underline">
          <Trans>← Back to the article</Trans>
        </Link>
      </p>
      <PageHeader
        title={t`Article history`}
        description={t`Who changed the article, when, and what changed.`}
      />
      <Card className="p-6">
        <ArticleHistory articleId={id} />
      </Card>
    </>
  );
}
