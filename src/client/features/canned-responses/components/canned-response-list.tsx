import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { MessageSquareText, Pencil, Plus, SearchX, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  cannedResponseListQuery,
  matchesSearch,
  useDeleteCannedResponse,
} from "#client/features/canned-responses/canned-responses.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type {
  CannedResponse,
  CannedResponseScope,
} from "#shared/canned-responses/canned-response.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { CannedResponseFormDialog } from "./canned-response-form-dialog.tsx";

type Editing =
  | { kind: "create" }
  | { kind: "edit"; response: CannedResponse }
  | { kind: "delete"; response: CannedResponse };

/** The responses of one scope the person may use, filtered by `search`, with what they may do to each. */
export function CannedResponseList({
  actor,
  scope,
  search,
}: {
  actor: Actor;
  scope: CannedResponseScope;
  search: string;
}) {
  const { t } = useLingui();
  const query = useQuery(cannedResponseListQuery());
  const [editing, setEditing] = useState<Editing | null>(null);
  const canCreate = can.createCannedResponse(actor, scope);
  const inScope = (query.data ?? []).filter((response) => response.scope === scope);
  const shown = inScope.filter((response) => matchesSearch(response, search));
  const close = () => setEditing(null);

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <div className="flex justify-center py-10">
        <Spinner label={t`Loading responses`} />
      </div>
    );
  } else if (query.isError) {
    content = (
      <LoadFailed message={t`The responses could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  } else if (inScope.length === 0) {
    content = (
      <EmptyState
        icon={MessageSquareText}
        title={scope === "shared" ? t`No shared responses yet` : t`No personal responses yet`}
        description={
          scope === "shared"
            ? canCreate
              ? t`Shared responses are offered to every technician and administrator.`
              : t`Administrators write the responses the whole team shares.`
            : t`Save the replies you type again and again, then insert them from any ticket's comment box.`
        }
        action={canCreate ? <NewResponseButton onClick={() => setEditing({ kind: "create" })} /> : undefined}
      />
    );
  } else if (shown.length === 0) {
    content = <EmptyState icon={SearchX} title={t`No response matches`} description={t`Try other words.`} />;
  } else {
    content = (
      <ul className="divide-y divide-slate-100">
        {shown.map((response) => (
          <li key={response.id} className="px-5 py-4">
            <ResponseItem
              response={response}
              canManage={can.manageCannedResponse(actor, response)}
              onEdit={() => setEditing({ kind: "edit", response })}
              onDelete={() => setEditing({ kind: "delete", response })}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      {canCreate && inScope.length > 0 ? (
        <div className="flex justify-end border-b border-slate-100 px-5 py-3">
          <NewResponseButton onClick={() => setEditing({ kind: "create" })} />
        </div>
      ) : null}
      {content}
      {editing?.kind === "create" ? <CannedResponseFormDialog scope={scope} onClose={close} /> : null}
      {editing?.kind === "edit" ? (
        <CannedResponseFormDialog response={editing.response} scope={scope} onClose={close} />
      ) : null}
      {editing?.kind === "delete" ? <DeleteDialog response={editing.response} onClose={close} /> : null}
    </>
  );
}

function NewResponseButton({ onClick }: { onClick: () => void }) {
  return (
    <Button size="sm" onClick={onClick}>
      <Plus aria-hidden="true" className="size-4" />
      <Trans>New response</Trans>
    </Button>
  );
}

function ResponseItem({
  response,
  canManage,
  onEdit,
  onDelete,
}: {
  response: CannedResponse;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useLingui();
  return (
    <article aria-label={response.title} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold break-words text-slate-900">
          {response.title}
          {response.scope === "shared" ? (
            <Badge tone="indigo">
              <Trans>Shared</Trans>
            </Badge>
          ) : null}
        </h3>
        <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-600">{response.body}</p>
        <p className="mt-2 text-xs text-slate-400">
          {response.scope === "shared" && response.ownerName
            ? t`By ${response.ownerName} · Updated ${formatDateTime(response.updatedAt)}`
            : t`Updated ${formatDateTime(response.updatedAt)}`}
        </p>
      </div>
      {canManage ? (
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={t`Edit ${response.title}`}>
            <Pencil aria-hidden="true" className="size-4" />
            <Trans>Edit</Trans>
          </Button>
          <Button variant="ghost" size="sm" onClick={onDelete} aria-label={t`Delete ${response.title}`}>
            <Trash2 aria-hidden="true" className="size-4" />
            <Trans>Delete</Trans>
          </Button>
        </div>
      ) : null}
    </article>
  );
}

function DeleteDialog({ response, onClose }: { response: CannedResponse; onClose: () => void }) {
  const { t } = useLingui();
  const remove = useDeleteCannedResponse();
  return (
    <ConfirmDialog
      title={t`Delete this response?`}
      description={
        response.scope === "shared"
          ? t`"${response.title}" will no longer be offered to anyone.`
          : t`"${response.title}" will be gone for good.`
      }
      confirmLabel={t`Delete`}
      successMessage={t`Response deleted`}
      onConfirm={() => remove.mutateAsync(response.id)}
      onClose={onClose}
    />
  );
}
