import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Input, TextField } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  type FieldErrors,
  fieldErrorsFromServer,
  fieldErrorsOf,
  noFieldErrors,
} from "#client/features/settings/field-errors.ts";
import { settingQuery, signInMethodsQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import {
  maxSsoRoleRules,
  type SsoMappedRole,
  type SsoRoleSettings,
  ssoRoleSettingsSchema,
} from "#shared/users/sso-roles.ts";

/**
 * Admin settings › Single sign-on (decision 082): which claim of the organisation's OpenID Connect sign-in
 * is read, and which values make someone a technician or an admin.
 */
export function SsoRoleSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<SsoRoleSettings>("sso-roles"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading single sign-on settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The single sign-on settings could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  // A new key after each save starts the form again from what the server stored (trimmed values).
  return <SsoRoleForm key={query.data.updatedAt ?? "default"} saved={query.data.value} />;
}

interface Row {
  /** Stable while rows are removed, so React keeps each input's focus and caret. */
  key: number;
  value: string;
  role: SsoMappedRole;
}

function SsoRoleForm({ saved }: { saved: SsoRoleSettings }) {
  const { t } = useLingui();
  const id = useId();
  const nextKey = useRef(saved.rules.length);
  const [claim, setClaim] = useState(saved.claim);
  const [rows, setRows] = useState<Row[]>(() => saved.rules.map((rule, key) => ({ key, ...rule })));
  const [errors, setErrors] = useState<FieldErrors>(noFieldErrors);
  const save = useSaveSetting<SsoRoleSettings>("sso-roles");
  // Whether this server offers the organisation's sign-in at all (decision 061); unknown counts as yes.
  const providers = useQuery(signInMethodsQuery);
  const isOidcOff = providers.data !== undefined && !providers.data.oidc;

  const roleOptions = [
    { value: "technician", label: t`Technician` },
    { value: "admin", label: t`Admin` },
  ];

  // Positions change with every removal: errors found for the old rows would point at the wrong ones.
  const change = (next: Row[]) => {
    setRows(next);
    setErrors(noFieldErrors);
  };
  const edit = (key: number, changes: Partial<Row>) =>
    change(rows.map((row) => (row.key === key ? { ...row, ...changes } : row)));

  const handleSave = (event: FormEvent) => {
    event.preventDefault();
    const value = { claim, rules: rows.map(({ value, role }) => ({ value, role })) };
    const checked = ssoRoleSettingsSchema.safeParse(value);
    if (!checked.success) return setErrors(fieldErrorsOf(checked.error.issues));
    save.mutate(checked.data, {
      onSuccess: () => toast.success(settingsSaved),
      onError: (error) => setErrors(fieldErrorsFromServer(error)),
    });
  };

  const listMessages = [errors[""], errors.rules].filter((message) => message !== undefined);

  return (
    <form noValidate onSubmit={handleSave} className="flex max-w-2xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Roles from single sign-on</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>
            At every sign-in through your organisation's OpenID Connect provider, the claim named here is
            read, and a value listed below makes the person a technician or an admin; the highest role wins. A
            role changed at the provider applies at the person's next sign-in. People who sign in with a
            password or with Google are not affected.
          </Trans>
        </p>
        <p className="mt-2 text-sm font-medium text-slate-900">
          <Trans>
            People who match no rule sign in as users; with rules saved, people do not choose their own role.
          </Trans>
        </p>
      </div>
      {isOidcOff ? (
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <Trans>
            This server has no OpenID Connect provider configured (OIDC_ISSUER), so these rules apply only
            once one is.
          </Trans>
        </p>
      ) : null}
      {listMessages.length > 0 ? <Alert>{listMessages.join(" ")}</Alert> : null}

      <TextField
        label={t`Claim`}
        className="max-w-sm"
        value={claim}
        autoComplete="off"
        spellCheck={false}
        error={errors.claim}
        onChange={(event) => {
          setClaim(event.target.value);
          setErrors(noFieldErrors);
        }}
      />

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-900">
          <Trans>Rules</Trans>
        </legend>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>No rules: people who sign in through the provider choose their own role once.</Trans>
          </p>
        ) : (
          <ol
            aria-label={t`Rules`}
            className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200"
          >
            {rows.map((row, index) => {
              const valueId = `${id}-value-${row.key}`;
              const roleId = `${id}-role-${row.key}`;
              const rowErrors = [errors[`rules.${index}.value`], errors[`rules.${index}.role`]].filter(
                Boolean,
              );
              return (
                <li key={row.key} className="flex flex-col gap-1 px-3 py-2">
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                    <label htmlFor={valueId} className="sr-only">
                      {t`Value of rule ${index + 1}`}
                    </label>
                    <Input
                      id={valueId}
                      value={row.value}
                      placeholder={t`Group name or id`}
                      autoComplete="off"
                      spellCheck={false}
                      invalid={errors[`rules.${index}.value`] !== undefined}
                      className="sm:flex-1"
                      onChange={(event) => edit(row.key, { value: event.target.value })}
                    />
                    <div className="flex items-center gap-2">
                      <span aria-hidden="true" className="text-sm text-slate-500">
                        →
                      </span>
                      <label htmlFor={roleId} className="sr-only">
                        {t`Role of rule ${index + 1}`}
                      </label>
                      <div className="flex-1 sm:w-36 sm:flex-none">
                        <Select
                          id={roleId}
                          value={row.role}
                          options={roleOptions}
                          onChange={(event) => edit(row.key, { role: event.target.value as SsoMappedRole })}
                        />
                      </div>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-2 text-red-600 hover:text-red-700"
                        aria-label={t`Remove rule ${index + 1}`}
                        onClick={() => change(rows.filter((other) => other.key !== row.key))}
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                      </Button>
                    </div>
                  </div>
                  {rowErrors.length > 0 ? (
                    <p className="text-sm text-red-600">{rowErrors.join(" ")}</p>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
        <div>
          <Button
            variant="secondary"
            disabled={rows.length >= maxSsoRoleRules}
            onClick={() => change([...rows, { key: nextKey.current++, value: "", role: "technician" }])}
          >
            <Plus aria-hidden="true" className="size-4" />
            <Trans>Add rule</Trans>
          </Button>
        </div>
      </fieldset>

      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t`Saving…` : t`Save`}
        </Button>
      </div>
    </form>
  );
}
