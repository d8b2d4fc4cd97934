import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { articleStatsQuery } from "#client/features/articles/articles.api.ts";
import { Link } from "#client/lib/router/links.tsx";
import { articlePath } from "#shared/articles/article-slug.ts";

/** Staff figures per article: views, helpful votes, suggestions opened and deflected tickets. */
export function ArticleStatsTable() {
  const { t } = useLingui();
  const stats = useQuery(articleStatsQuery());
  if (stats.isPending) return <Spinner label={t`Loading figures`} />;
  if (stats.isError)
    return <LoadFailed message={t`Could not load the figures.`} onRetry={() => void stats.refetch()} />;
  return (
    // A table wider than a phone scrolls in its box; the box takes focus so keys can scroll it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className="overflow-x-auto" tabIndex={0} aria-label={t`Article figures`}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          <Trans>Article figures</Trans>
        </caption>
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-5 py-2">
              <Trans>Article</Trans>
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <Trans>Views</Trans>
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <Trans>Helpful</Trans>
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <Trans>Not helpful</Trans>
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <Trans>Opened from form</Trans>
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <Trans>Deflections</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {stats.data.items.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="px-5 py-2 font-medium">
                <Link to={articlePath(row.slug)} className="text-indigo-700 hover:underline">
                  {row.title}
                </Link>
              </th>
              <td className="px-3 py-2 text-right">{row.views}</td>
              <td className="px-3 py-2 text-right">{row.helpfulYes}</td>
              <td className="px-3 py-2 text-right">{row.helpfulNo}</td>
              <td className="px-3 py-2 text-right">{row.suggestionOpens}</td>
              <td className="px-3 py-2 text-right">{row.deflections}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
