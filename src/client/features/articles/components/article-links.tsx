import type { ReactNode } from "react";
import { Link } from "#client/lib/router/links.tsx";
import { articleLinkPattern, articlePath } from "#shared/articles/article-slug.ts";

/**
 * A comment's text with every pasted help-article address (/kb/… or the full URL) shown as a link to the
 * article; the rest goes through `renderText` (mentions).
 */
export function ArticleLinks({
  text,
  renderText,
}: {
  text: string;
  renderText: (text: string) => ReactNode;
}) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(articleLinkPattern.source, "g"))) {
    const start = match.index ?? 0;
    if (start > last) parts.push(<span key={`t${last}`}>{renderText(text.slice(last, start))}</span>);
    parts.push(
      <Link key={`a${start}`} to={articlePath(match[1]!)} className="text-indigo-700 underline">
        {match[0]}
      </Link>,
    );
    last = start + match[0].length;
  }
  if (last === 0) return <>{renderText(text)}</>;
  if (last < text.length) parts.push(<span key={`t${last}`}>{renderText(text.slice(last))}</span>);
  return <>{parts}</>;
}
