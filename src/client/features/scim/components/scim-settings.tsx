import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Input, TextField } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { ShownOnceDialog } from "#client/components/ui/shown-once-dialog.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  scimTokenListQuery,
  useCreateScimToken,
  useRevokeScimToken,
} from "#client/features/scim/scim.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import {
  type CreatedScimToken,
  createScimTokenInputSchema,
  type ScimToken,
  scimTokenNameMaxLength,
} from "#shared/scim/scim-token.schemas.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

type DialogState =
  | { kind: "create" }
  | { kind: "created"; created: CreatedScimToken }
  | { kind: "revoke"; token: ScimToken };

/**
 * Admin settings → Provisioning (SCIM): the base URL and tokens an identity provider (Entra ID, Okta)
 * creates, updates and deactivates people with (decision 081).
 */
export function ScimSettings() {
  const { t } = useLingui();
  const query = useQuery(scimTokenListQuery());
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const close = () => setDialog(null);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-xl text-sm text-slate-600">
          <Trans>
            Let your identity provider (Microsoft Entra ID, Okta) create people in Helpdesk, keep their name,
            e-mail and department up to date, and deactivate them when they leave. Provisioned people are
            users; they sign in with your organisation's single sign-on or choose a password with "Forgot
            password". A token acts as the administrator who created it.
          </Trans>
        </p>
        <Button size="sm" onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          <Trans>New SCIM token</Trans>
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t`Loading SCIM tokens`} />
        </div>
      ) : query.isError ? (
        <LoadFailed message={t`The SCIM tokens could not be loaded.`} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <div className="max-w-xl">
            <Field label={t`SCIM base URL (Tenant URL)`} htmlFor="scim-base-url">
              <Input
                id="scim-base-url"
                readOnly
                className="font-mono"
                value={query.data.baseUrl}
                onFocus={(event) => event.currentTarget.select()}
              />
            </Field>
          </div>
          {query.data.items.length === 0 ? (
            <p className="text-sm text-slate-500">
              <Trans>No SCIM tokens yet.</Trans>
            </p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label={t`SCIM tokens`}>
              {query.data.items.map((token) => (
                <li
                  key={token.id}
                  className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-4"
                >
                  <div className="min-w-0 text-sm">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                      <KeyRound aria-hidden="true" className="size-4 text-slate-400" />
                      <span className="break-words">{token.name}</span>
                    </p>
                    <p className="mt-1 font-mono text-xs text-slate-500">{token.prefix}…</p>
                    <p className="mt-1 text-xs text-slate-500">
                      {t`Created ${formatDateTime(token.createdAt)} by ${token.createdByName ?? t`someone no longer registered`} · Last used ${token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t`never`}`}
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
        </>
      )}
      {dialog?.kind === "create" ? (
        <CreateScimTokenDialog
          onClose={close}
          onCreated={(created) => setDialog({ kind: "created", created })}
        />
      ) : null}
      {dialog?.kind === "created" ? (
        <ShownOnceDialog
          title={t`SCIM token "${dialog.created.name}" created`}
          description={t`Copy it now into your identity provider's "Secret Token": it is shown only once, and Helpdesk keeps only a fingerprint of it.`}
          label={t`SCIM token`}
          value={dialog.created.token}
          copiedMessage={t`Token copied`}
          copyRefusedMessage={t`The browser did not allow copying. Select the token and copy it.`}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "revoke" ? <RevokeScimTokenDialog token={dialog.token} onClose={close} /> : null}
    </div>
  );
}

function CreateScimTokenDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: CreatedScimToken) => void;
}) {
  const { t } = useLingui();
  const create = useCreateScimToken();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = createScimTokenInputSchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    setServerError(null);
    try {
      onCreated(await create.mutateAsync(parsed.data));
    } catch (error) {
      setServerError(messageOf(error));
    }
  }

  return (
    <Dialog
      title={t`New SCIM token`}
      description={t`Name it after the identity provider that will use it.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Name`}
          error={nameError}
          autoComplete="off"
          placeholder={t`Microsoft Entra ID`}
          maxLength={scimTokenNameMaxLength}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
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

function RevokeScimTokenDialog({ token, onClose }: { token: ScimToken; onClose: () => void }) {
  const { t } = useLingui();
  const revoke = useRevokeScimToken();
  return (
    <ConfirmDialog
      title={t`Revoke this SCIM token?`}
      description={t`The identity provider using "${token.name}" (${token.prefix}…) will be refused from now on, and stops provisioning people.`}
      confirmLabel={t`Revoke`}
      successMessage={t`SCIM token revoked`}
      onConfirm={() => revoke.mutateAsync(token.id)}
      onClose={onClose}
    />
  );
}
