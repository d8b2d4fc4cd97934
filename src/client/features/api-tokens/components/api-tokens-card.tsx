import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, TextField } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { ShownOnceDialog } from "#client/components/ui/shown-once-dialog.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  apiTokenListQuery,
  curlExample,
  useCreateApiToken,
  useRevokeApiToken,
} from "#client/features/api-tokens/api-tokens.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import {
  type ApiToken,
  type ApiTokenScope,
  apiTokenNameMaxLength,
  type CreatedApiToken,
  createApiTokenInputSchema,
} from "#shared/api-tokens/api-token.schemas.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

const scopeOptionsOf = () => [
  { value: "read", label: tc`Read only (GET)` },
  { value: "write", label: tc`Read and write` },
];
const expiryOptionsOf = () => [
  { value: "7", label: tc`7 days` },
  { value: "30", label: tc`30 days` },
  { value: "90", label: tc`90 days` },
  { value: "365", label: tc`1 year` },
  { value: "never", label: tc`Never` },
];

const isExpired = (token: ApiToken) =>
  token.expiresAt !== null && new Date(token.expiresAt).getTime() <= Date.now();

/** /profile's "API tokens": a person's own tokens for scripts (docs/decisions/024). */
export function ApiTokensCard() {
  const { t } = useLingui();
  const query = useQuery(apiTokenListQuery());
  const headingId = useId();
  const [dialog, setDialog] = useState<{ kind: "create" } | { kind: "revoke"; token: ApiToken } | null>(null);
  const close = () => setDialog(null);

  return (
    <Card className="mt-6 max-w-2xl" aria-labelledby={headingId} role="region">
      <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-6 py-4">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            <Trans>API tokens</Trans>
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            <Trans>
              Let a script use Helpdesk as you, with your permissions. Revoke a token you no longer use.
            </Trans>
          </p>
        </div>
        <Button size="sm" onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          <Trans>New token</Trans>
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center p-6">
          <Spinner label={t`Loading API tokens`} />
        </div>
      ) : query.isError ? (
        <LoadFailed
          className="p-6"
          message={t`Your API tokens could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <p className="p-6 text-sm text-slate-500">
          <Trans>You have no API tokens.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {query.data.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 px-6 py-4">
              <div className="min-w-0 text-sm">
                <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  <KeyRound aria-hidden="true" className="size-4 text-slate-400" />
                  <span className="break-words">{token.name}</span>
                  <Badge tone={token.scope === "write" ? "indigo" : "slate"}>
                    {token.scope === "write" ? t`Read and write` : t`Read only`}
                  </Badge>
                  {isExpired(token) ? (
                    <Badge tone="red">
                      <Trans>Expired</Trans>
                    </Badge>
                  ) : null}
                </p>
                <p className="mt-1 font-mono text-xs text-slate-500">{token.prefix}…</p>
                <p className="mt-1 text-xs text-slate-500">
                  {t`Created ${formatDateTime(token.createdAt)} · Last used ${token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t`never`}`}{" "}
                  ·{" "}
                  {token.expiresAt
                    ? isExpired(token)
                      ? t`Expired ${formatDateTime(token.expiresAt)}`
                      : t`Expires ${formatDateTime(token.expiresAt)}`
                    : t`Never expires`}
                </p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={t`Revoke ${token.name}`}
                onClick={() => setDialog({ kind: "revoke", token })}
              >
                <Trans>Revoke</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {dialog?.kind === "create" ? <CreateTokenDialog onClose={close} /> : null}
      {dialog?.kind === "revoke" ? <RevokeTokenDialog token={dialog.token} onClose={close} /> : null}
    </Card>
  );
}

function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const create = useCreateApiToken();
  const id = useId();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const [expiry, setExpiry] = useState("90");
  const [nameError, setNameError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const input = { name, scope, expiresInDays: expiry === "never" ? null : Number(expiry) };
    const parsed = createApiTokenInputSchema.safeParse(input);
    if (!parsed.success) {
      setNameError(parsed.error.issues.find((issue) => issue.path[0] === "name")?.message);
      return;
    }
    setNameError(undefined);
    setServerError(null);
    try {
      setCreated(await create.mutateAsync(parsed.data));
    } catch (error) {
      setServerError(messageOf(error));
    }
  }

  if (created) return <CreatedTokenDialog created={created} onClose={onClose} />;
  return (
    <Dialog
      title={t`New API token`}
      description={t`The token acts as you, with your permissions.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Name`}
          error={nameError}
          autoComplete="off"
          placeholder={t`Nightly report script`}
          maxLength={apiTokenNameMaxLength}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <Field label={t`Access`} htmlFor={`${id}-scope`}>
          <Select
            id={`${id}-scope`}
            options={scopeOptionsOf()}
            value={scope}
            onChange={(event) => setScope(event.target.value as ApiTokenScope)}
          />
        </Field>
        <Field label={t`Expires after`} htmlFor={`${id}-expiry`}>
          <Select
            id={`${id}-expiry`}
            options={expiryOptionsOf()}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
          />
        </Field>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={create.isPending}>
            <Trans>Create token</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function CreatedTokenDialog({ created, onClose }: { created: CreatedApiToken; onClose: () => void }) {
  const { t } = useLingui();
  const example = curlExample(created.token, window.location.origin);
  return (
    <ShownOnceDialog
      title={t`Token "${created.name}" created`}
      description={t`Copy it now: it is shown only once, and Helpdesk keeps only a fingerprint of it.`}
      label={t`Your token`}
      value={created.token}
      copiedMessage={t`Token copied`}
      copyRefusedMessage={t`The browser did not allow copying. Select the token and copy it.`}
      onClose={onClose}
    >
      <div>
        <p className="text-sm font-medium text-slate-700">
          <Trans>Try it with curl</Trans>
        </p>
        <pre className="mt-1 whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">
          {example}
        </pre>
      </div>
    </ShownOnceDialog>
  );
}

function RevokeTokenDialog({ token, onClose }: { token: ApiToken; onClose: () => void }) {
  const { t } = useLingui();
  const revoke = useRevokeApiToken();
  return (
    <ConfirmDialog
      title={t`Revoke this token?`}
      description={t`Scripts using "${token.name}" (${token.prefix}…) will be refused from now on.`}
      confirmLabel={t`Revoke`}
      successMessage={t`Token revoked`}
      onConfirm={() => revoke.mutateAsync(token.id)}
      onClose={onClose}
    />
  );
}
