import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Field } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { adminChangesQuery } from "#client/features/settings/settings.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import {
  type AdminChangeArea,
  adminChangeAreaLabels,
  adminChangeAreas,
} from "#shared/settings/settings.schemas.ts";

const areaLabel = (area: string) => adminChangeAreaLabels[area as AdminChangeArea] ?? area;

const areaOptionsOf = () => [
  { value: "", label: tc`All areas` },
  ...adminChangeAreas.map((area) => ({ value: area, label: adminChangeAreaLabels[area] })),
];

/** Who changed which setting and when, newest first, of one area or all; each opens to before and after. */
export function AdminChangeHistory() {
  const { t } = useLingui();
  const id = useId();
  const [area, setArea] = useState<AdminChangeArea | "">("");
  return (
    <div className="flex flex-col gap-4">
      <Field label={t`Area`} htmlFor={`${id}-area`} className="max-w-xs">
        <Select
          id={`${id}-area`}
          options={areaOptionsOf()}
          value={area}
          onChange={(event) => setArea(event.target.value as AdminChangeArea | "")}
        />
      </Field>
      <ChangeList area={area || undefined} />
    </div>
  );
}

function ChangeList({ area }: { area: AdminChangeArea | undefined }) {
  const { t } = useLingui();
  const query = useInfiniteQuery(adminChangesQuery(area));
  const changes = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading history`} />
      </div>
    );
  }
  if (query.isError) {
    return <LoadFailed message={t`The history could not be loaded.`} onRetry={() => void query.refetch()} />;
  }
  if (changes.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {area ? t`No changes to ${areaLabel(area)} yet.` : t`No settings changed yet.`}
      </p>
    );
  }

  return (
    <>
      <ol className="flex flex-col divide-y divide-slate-100" aria-label={t`Settings changes`}>
        {changes.map((change) => (
          <li key={change.id} className="py-3">
            <p className="text-sm font-medium text-slate-900">
              {change.summary}{" "}
              <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-700">
                {areaLabel(change.area)}
              </span>
            </p>
            <p className="text-xs text-slate-600">
              {change.actorName ?? t`Someone no longer registered`} ·{" "}
              <time dateTime={change.at}>{formatDateTime(change.at)}</time>
            </p>
            <ListChanges before={change.before} after={change.after} />
            <details className="mt-1.5 text-sm">
              <summary className="cursor-pointer text-slate-700">
                <Trans>Before and after</Trans>
              </summary>
              <div className="mt-2 grid gap-2 md:grid-cols-2">
                <ValueBlock label={t`Before`} value={change.before} />
                <ValueBlock label={t`After`} value={change.after} />
              </div>
            </details>
          </li>
        ))}
      </ol>
      <LoadMore query={query} showsLoading={false} className="mt-3 flex justify-center" />
    </>
  );
}

/** The one list a value holds ({ departments: [...] }), or null when it holds something else. */
function listOf(value: unknown): string[] | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const entries = Object.values(value);
  const [list] = entries;
  return entries.length === 1 && Array.isArray(list) && list.every((item) => typeof item === "string")
    ? list
    : null;
}

/** For a list (departments): what was added and removed, in words, above the full before and after. */
function ListChanges({ before, after }: { before: unknown; after: unknown }) {
  const beforeList = listOf(before);
  const afterList = listOf(after);
  if (!beforeList || !afterList) return null;
  const added = afterList.filter((item) => !beforeList.includes(item));
  const removed = beforeList.filter((item) => !afterList.includes(item));
  const parts = [
    added.length > 0 ? tc`Added ${added.join(", ")}` : null,
    removed.length > 0 ? tc`Removed ${removed.join(", ")}` : null,
    added.length === 0 && removed.length === 0 ? tc`Changed the order` : null,
  ].filter((part) => part !== null);
  return <p className="mt-1 text-sm text-slate-700">{parts.join(" · ")}</p>;
}

function ValueBlock({ label, value }: { label: string; value: unknown }) {
  const list = listOf(value);
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium text-slate-600">{label}</p>
      {list ? (
        <ol className="mt-1 max-h-64 list-inside list-decimal overflow-auto rounded bg-slate-50 p-2 text-xs text-slate-800">
          {list.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ol>
      ) : (
        <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs text-slate-800">
          {value === null || value === undefined ? "—" : JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}
