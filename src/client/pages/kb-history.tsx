import { Link, useParams } from "react-router";
import { articleIdFromSlug, articlePath } from "#shared/articles/article-slug.ts";
import { Card } from "../components/ui/card.tsx";
import { NotAvailable } from "../components/ui/not-available.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { ArticleHistory } from "../features/articles/components/article-history.tsx";

/** /kb/:slug/history: staff see every revision and what changed between two. */
export default function KnowledgeBaseHistoryPage() {
  const { slug = "" } = useParams();
  const id = articleIdFromSlug(slug);
  if (id === null)
    return <NotAvailable title="Article not found" description="This article does not exist." />;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={articlePath(slug)} className="text-indigo-700 hover:underline">
          ← Back to the article
        </Link>
      </p>
      <PageHeader title="Article history" description="Who changed the article, when, and what changed." />
      <Card className="p-6">
        <ArticleHistory articleId={id} />
      </Card>
    </>
  );
}
