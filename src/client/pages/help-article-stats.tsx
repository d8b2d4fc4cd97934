import { useLingui } from "@lingui/react/macro";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { ArticleStatsTable } from "#client/features/articles/components/article-stats-table.tsx";

/** /kb/stats: staff figures per article (views, helpful votes, deflections) until the reports show them. */
export default function HelpArticleStatsPage() {
  const { t } = useLingui();
  return (
    <>
      <PageHeader
        title={t`Article figures`}
        description={t`Views count once per person per day. A deflection: a suggested article opened from the create form, then the form left without a ticket.`}
      />
      <Card>
        <ArticleStatsTable />
      </Card>
    </>
  );
}
