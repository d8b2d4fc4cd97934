import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Input, TextField } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  type FieldErrors,
  fieldErrorsFromServer,
  fieldErrorsOf,
  noFieldErrors,
} from "#client/features/settings/field-errors.ts";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type DepartmentList,
  departmentKey,
  departmentListSchema,
  departmentNameMaxLength,
  departmentsMax,
} from "#shared/departments/department.schemas.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import { defaultDepartment } from "#shared/users/user.schemas.ts";

/** Admin settings → Departments: the list offered on the create form and in user management. */
export function DepartmentsSettings() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<DepartmentList>("departments"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading departments`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed message={t`The departments could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  }
  // A new key after each save starts the form again from what the server stored (trimmed names).
  return <DepartmentsForm key={query.data.updatedAt ?? "default"} initial={query.data.value.departments} />;
}

interface Row {
  /** Stable while the row moves, so React keeps each input's focus and caret. */
  key: number;
  name: string;
}

function DepartmentsForm({ initial }: { initial: readonly string[] }) {
  const { t } = useLingui();
  const id = useId();
  const nextKey = useRef(initial.length);
  const [rows, setRows] = useState<Row[]>(() => initial.map((name, key) => ({ key, name })));
  // General's row (by key, so it stays locked wherever it moves): it cannot be renamed or removed.
  const defaultKey = initial.indexOf(defaultDepartment);
  const [newName, setNewName] = useState("");
  const [addError, setAddError] = useState<string | undefined>();
  const [errors, setErrors] = useState<FieldErrors>(noFieldErrors);
  const save = useSaveSetting<DepartmentList>("departments");

  // Positions change with every edit: errors found for the old order would point at the wrong rows.
  const change = (next: Row[]) => {
    setRows(next);
    setErrors(noFieldErrors);
  };
  const rename = (key: number, name: string) =>
    change(rows.map((row) => (row.key === key ? { ...row, name } : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    if (row) next.splice(index + by, 0, row);
    change(next);
  };

  const handleAdd = (event: FormEvent) => {
    event.preventDefault();
    const name = newName.trim();
    if (!name) return setAddError(t`Type the name of the department to add`);
    if (name.length > departmentNameMaxLength) {
      return setAddError(t`Department name must be at most ${departmentNameMaxLength} characters`);
    }
    if (rows.some((row) => departmentKey(row.name) === departmentKey(name))) {
      return setAddError(t`${name} is already in the list`);
    }
    change([...rows, { key: nextKey.current++, name }]);
    setNewName("");
    setAddError(undefined);
  };

  const handleSave = () => {
    const value = { departments: rows.map((row) => row.name) };
    const checked = departmentListSchema.safeParse(value);
    if (!checked.success) return setErrors(fieldErrorsOf(checked.error.issues));
    save.mutate(checked.data, {
      onSuccess: () => toast.success(settingsSaved),
      onError: (error) => setErrors(fieldErrorsFromServer(error)),
    });
  };

  // The list as a whole (General missing, too many) and anything the server said without naming a row.
  const listMessages = [errors[""], errors.departments].filter((message) => message !== undefined);
  const rowError = (index: number) => errors[`departments.${index}`];

  return (
    <div className="flex max-w-2xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Departments</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>
            Offered on the new-ticket form and in user management, in this order; people can still type a
            department that is not listed. Renaming or removing a department does not change tickets or users
            that already have it. {defaultDepartment} stays: it is the default for new tickets and users.
          </Trans>
        </p>
      </div>

      <form noValidate onSubmit={handleAdd} className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <TextField
          label={t`New department`}
          className="sm:flex-1"
          value={newName}
          maxLength={departmentNameMaxLength + 20}
          autoComplete="off"
          error={addError}
          onChange={(event) => {
            setNewName(event.target.value);
            setAddError(undefined);
          }}
        />
        <Button
          type="submit"
          variant="secondary"
          className="sm:mt-7"
          disabled={rows.length >= departmentsMax}
        >
          <Plus aria-hidden="true" className="size-4" />
          <Trans>Add department</Trans>
        </Button>
      </form>

      {listMessages.length > 0 ? <Alert>{listMessages.join(" ")}</Alert> : null}

      <ol
        aria-label={t`Departments`}
        className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200"
      >
        {rows.map((row, index) => {
          const isDefault = row.key === defaultKey;
          const label = row.name.trim() || t`Department ${index + 1}`;
          const inputId = `${id}-department-${row.key}`;
          const error = rowError(index);
          return (
            <li key={row.key} className="flex flex-col gap-1 px-3 py-2">
              <div className="flex items-center gap-2">
                <span
                  className="hidden w-6 shrink-0 text-right text-xs text-slate-500 sm:block"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <label htmlFor={inputId} className="sr-only">
                  {t`Department ${index + 1}`}
                </label>
                <Input
                  id={inputId}
                  value={row.name}
                  invalid={error !== undefined}
                  readOnly={isDefault}
                  autoComplete="off"
                  className={isDefault ? "bg-slate-50" : undefined}
                  onChange={(event) => rename(row.key, event.target.value)}
                />
                <Button
                  variant="ghost"
                  size="sm"
                  className="px-2"
                  aria-label={t`Move ${label} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <ArrowUp aria-hidden="true" className="size-4" />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="px-2"
                  aria-label={t`Move ${label} down`}
                  disabled={index === rows.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <ArrowDown aria-hidden="true" className="size-4" />
                </Button>
                {isDefault ? (
                  <span className="w-14 shrink-0 text-center text-xs text-slate-500">
                    <Trans>Default</Trans>
                  </span>
                ) : (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="w-14 px-2 text-red-600 hover:text-red-700"
                    aria-label={t`Remove ${label}`}
                    onClick={() => change(rows.filter((other) => other.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                )}
              </div>
              {error ? (
                <p id={`${inputId}-error`} className="text-sm text-red-600 sm:pl-8">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>

      <div className="flex justify-end">
        <Button onClick={handleSave} disabled={save.isPending}>
          {save.isPending ? t`Saving…` : t`Save`}
        </Button>
      </div>
    </div>
  );
}
