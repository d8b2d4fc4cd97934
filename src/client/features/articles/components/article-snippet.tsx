import type { SnippetPart } from "#shared/articles/article.schemas.ts";

/** Where the search words matched: text parts, the matched words marked (never HTML from the article). */
export function ArticleSnippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <p className="mt-1 line-clamp-2 text-sm text-slate-600">
      {parts.map((part, index) =>
        part.highlighted ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder.
          <mark key={index} className="rounded bg-amber-100 px-0.5 text-slate-900">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder.
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
