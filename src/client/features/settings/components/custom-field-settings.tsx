import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  adminCustomFieldsQuery,
  useReorderCustomFields,
  useSetCustomFieldRetired,
} from "#client/features/settings/custom-fields.api.ts";
import { toast } from "#client/lib/toast.ts";
import { type CustomField, customFieldTypeLabels } from "#shared/custom-fields/custom-field.schemas.ts";
import { CustomFieldDialog } from "./custom-field-dialog.tsx";

/** Admin settings → Custom fields: the fields in the create form's order; add, edit, move, retire. */
export function CustomFieldSettings() {
  const { t } = useLingui();
  const query = useQuery(adminCustomFieldsQuery());
  const reorder = useReorderCustomFields();
  const setRetired = useSetCustomFieldRetired();
  const [editing, setEditing] = useState<CustomField | "new" | null>(null);
  const fields = query.data?.items ?? [];

  const move = (index: number, by: -1 | 1) => {
    const ids = fields.map((field) => field.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids, { onError: (error) => toast.error(error.message) });
  };

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading custom fields`} />
      </div>
    );
  } else if (query.isError) {
    body = (
      <LoadFailed message={t`The custom fields could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  } else if (fields.length === 0) {
    body = (
      <p className="text-sm text-slate-600">
        <Trans>No custom fields yet.</Trans>
      </p>
    );
  } else {
    body = (
      <ol className="flex flex-col divide-y divide-slate-100" aria-label={t`Custom fields`}>
        {fields.map((field, index) => (
          <li key={field.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                {field.label}
                {field.required ? (
                  <Badge tone="amber">
                    <Trans>Required</Trans>
                  </Badge>
                ) : null}
                {field.retired ? (
                  <Badge tone="slate">
                    <Trans>Retired</Trans>
                  </Badge>
                ) : null}
              </p>
              <p className="text-xs text-slate-600">
                {customFieldTypeLabels[field.type]} · {field.category ?? t`All categories`}
                {field.options.length > 0
                  ? ` · ${field.options.map((option) => option.label).join(", ")}`
                  : ""}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-1">
              <Button
                variant="ghost"
                size="sm"
                aria-label={t`Move ${field.label} up`}
                disabled={index === 0 || reorder.isPending}
                onClick={() => move(index, -1)}
              >
                <ArrowUp aria-hidden="true" className="size-4" />
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-label={t`Move ${field.label} down`}
                disabled={index === fields.length - 1 || reorder.isPending}
                onClick={() => move(index, 1)}
              >
                <ArrowDown aria-hidden="true" className="size-4" />
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={t`Edit ${field.label}`}
                onClick={() => setEditing(field)}
              >
                <Trans>Edit</Trans>
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={field.retired ? t`Restore ${field.label}` : t`Retire ${field.label}`}
                disabled={setRetired.isPending}
                onClick={() =>
                  setRetired.mutate(
                    { id: field.id, retired: !field.retired },
                    {
                      onSuccess: () => toast.success(field.retired ? t`Field restored` : t`Field retired`),
                      onError: (error) => toast.error(error.message),
                    },
                  )
                }
              >
                {field.retired ? t`Restore` : t`Retire`}
              </Button>
            </div>
          </li>
        ))}
      </ol>
    );
  }

  return (
    <section aria-labelledby="custom-fields-heading">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="custom-fields-heading" className="text-base font-semibold text-slate-900">
            <Trans>Custom fields</Trans>
          </h2>
          <p className="text-sm text-slate-600">
            <Trans>
              Extra questions on the create form. Retiring a field hides it from forms and filters; tickets
              keep their values.
            </Trans>
          </p>
        </div>
        <Button onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" className="size-4" /> <Trans>Add field</Trans>
        </Button>
      </div>
      {body}
      {editing ? (
        <CustomFieldDialog field={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}
