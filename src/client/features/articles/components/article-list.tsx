import { plural } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { FileText } from "lucide-react";
import { Badge } from "#client/components/ui/badge.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { i18n } from "#client/lib/i18n.ts";
import { Link } from "#client/lib/router/links.tsx";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import type { ArticleSummary } from "#shared/articles/article.schemas.ts";
import { articlePath } from "#shared/articles/article-slug.ts";
import { ArticleSnippet } from "./article-snippet.tsx";

export function ArticleList({ items, emptyTitle }: { items: ArticleSummary[]; emptyTitle: string }) {
  if (items.length === 0) return <EmptyState icon={FileText} title={emptyTitle} />;
  return (
    <ul className="divide-y divide-slate-100">
      {items.map((item) => (
        <li key={item.id} className="px-5 py-4">
          <div className="flex flex-wrap items-center gap-2">
            <Link
              to={articlePath(item.slug)}
              className="font-medium text-slate-900 hover:text-indigo-700 hover:underline"
            >
              {item.title}
            </Link>
            <Badge tone="slate">{i18n._(categoryLabels[item.category])}</Badge>
            {item.status === "draft" ? (
              <Badge tone="amber">
                <Trans>Draft</Trans>
              </Badge>
            ) : null}
            {item.visibility === "internal" ? (
              <Badge tone="indigo">
                <Trans>Internal</Trans>
              </Badge>
            ) : null}
          </div>
          {item.snippet ? <ArticleSnippet parts={item.snippet} /> : null}
          <p className="mt-1 text-xs text-slate-500">
            {plural(item.views, { one: "# view", other: "# views" })}
            {item.tags.length > 0 ? ` · ${item.tags.join(", ")}` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
}
