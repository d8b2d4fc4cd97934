import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Field } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { articleDiffQuery, articleRevisionsQuery } from "#client/features/articles/articles.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { DiffPart } from "#shared/articles/article.schemas.ts";
import { articleStatusLabels } from "./article-form.tsx";

function DiffText({ parts, label }: { parts: DiffPart[]; label: string }) {
  return (
    <figure>
      <figcaption className="mb-1 text-xs font-medium text-slate-600">{label}</figcaption>
      <pre className="overflow-x-auto rounded border border-slate-200 bg-white p-3 text-xs whitespace-pre-wrap">
        {parts.map((part, index) =>
          part.kind === "added" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder.
            <ins key={index} className="bg-green-100 text-green-900 no-underline">
              {part.value}
            </ins>
          ) : part.kind === "removed" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder.
            <del key={index} className="bg-red-100 text-red-900">
              {part.value}
            </del>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder.
            <span key={index}>{part.value}</span>
          ),
        )}
      </pre>
    </figure>
  );
}

/** Every saved revision (who, when) and what changed between any two. */
export function ArticleHistory({ articleId }: { articleId: number }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const revisions = useQuery(articleRevisionsQuery(articleId));
  const items = revisions.data?.items ?? [];
  const latest = items[0]?.number ?? 1;
  const [picked, setPicked] = useState<{ from: number; to: number } | null>(null);
  const from = picked?.from ?? Math.max(1, latest - 1);
  const to = picked?.to ?? latest;
  const diff = useQuery(articleDiffQuery(articleId, from, to));

  if (revisions.isPending) return <Spinner label={t`Loading revisions`} />;
  const options = items.map((item) => ({ value: String(item.number), label: t`Revision ${item.number}` }));
  return (
    <div className="space-y-4">
      <ol className="divide-y divide-slate-100 text-sm">
        {items.map((item) => (
          <li key={item.number} className="flex flex-wrap justify-between gap-2 py-2">
            <span className="font-medium text-slate-800">
              <Trans>
                Revision {item.number}: {item.title}
              </Trans>
            </span>
            <span className="text-slate-500">
              {item.authorName ?? t`Former member`} · {formatDateTime(item.createdAt)} ·{" "}
              {i18n._(articleStatusLabels[item.status])}
            </span>
          </li>
        ))}
      </ol>
      {items.length > 1 ? (
        <>
          <div className="flex flex-wrap gap-3">
            <Field label={t`Compare`} htmlFor={`${id}-from`}>
              <Select
                id={`${id}-from`}
                value={String(from)}
                options={options}
                onChange={(event) => setPicked({ from: Number(event.target.value), to })}
              />
            </Field>
            <Field label={t`with`} htmlFor={`${id}-to`}>
              <Select
                id={`${id}-to`}
                value={String(to)}
                options={options}
                onChange={(event) => setPicked({ from, to: Number(event.target.value) })}
              />
            </Field>
          </div>
          {diff.data ? (
            <div className="space-y-2">
              <DiffText parts={diff.data.title} label={t`Title changes`} />
              <DiffText parts={diff.data.body} label={t`Text changes`} />
            </div>
          ) : from === to ? (
            <p className="text-sm text-slate-500">
              <Trans>Choose two different revisions.</Trans>
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
