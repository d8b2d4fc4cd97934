import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Pencil, Plus, Trash2, WandSparkles } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { actionsSummary } from "#client/features/macros/macro-labels.ts";
import { macroListQuery, useDeleteMacro } from "#client/features/macros/macros.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { Macro, MacroScope } from "#shared/macros/macro.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { type MacroChoices, MacroFormDialog } from "./macro-form-dialog.tsx";

type Editing = { kind: "create" } | { kind: "edit"; macro: Macro } | { kind: "delete"; macro: Macro };

/** The macros of one scope the person may use, with what each does and what they may do to it. */
export function MacroList({
  actor,
  scope,
  choices,
}: {
  actor: Actor;
  scope: MacroScope;
  choices: MacroChoices;
}) {
  const { t } = useLingui();
  const query = useQuery(macroListQuery());
  const [editing, setEditing] = useState<Editing | null>(null);
  const canCreate = can.createMacro(actor, scope);
  const shown = (query.data ?? []).filter((macro) => macro.scope === scope);
  const close = () => setEditing(null);
  const names = {
    teamName: (id: string) => choices.teams.find((team) => team.id === id)?.name ?? id,
    personName: (id: string) => choices.technicians.find((person) => person.id === id)?.name ?? id,
  };

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <div className="flex justify-center py-10">
        <Spinner label={t`Loading macros`} />
      </div>
    );
  } else if (query.isError) {
    content = (
      <LoadFailed message={t`The macros could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  } else if (shown.length === 0) {
    content = (
      <EmptyState
        icon={WandSparkles}
        title={scope === "shared" ? t`No shared macros yet` : t`No personal macros yet`}
        description={
          scope === "shared"
            ? canCreate
              ? t`Shared macros are offered to every technician and administrator.`
              : t`Administrators write the macros the whole team shares.`
            : t`Save a reply together with the changes that go with it, and apply both to a ticket in one step.`
        }
        action={canCreate ? <NewMacroButton onClick={() => setEditing({ kind: "create" })} /> : undefined}
      />
    );
  } else {
    content = (
      <ul className="divide-y divide-slate-100">
        {shown.map((macro) => (
          <li key={macro.id} className="px-5 py-4">
            <article aria-label={macro.title} className="flex flex-col gap-3 sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1">
                <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold break-words text-slate-900">
                  {macro.title}
                  {macro.scope === "shared" ? (
                    <Badge tone="indigo">
                      <Trans>Shared</Trans>
                    </Badge>
                  ) : null}
                </h3>
                <p className="mt-1 text-sm break-words text-slate-700">
                  {actionsSummary(macro, names).join(" · ")}
                </p>
                {macro.body ? (
                  <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-wrap text-slate-500">
                    {macro.body}
                  </p>
                ) : null}
                <p className="mt-2 text-xs text-slate-500">
                  {macro.scope === "shared" && macro.ownerName
                    ? t`By ${macro.ownerName} · Updated ${formatDateTime(macro.updatedAt)}`
                    : t`Updated ${formatDateTime(macro.updatedAt)}`}
                </p>
              </div>
              {can.manageMacro(actor, macro) ? (
                <div className="flex shrink-0 gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => setEditing({ kind: "edit", macro })}
                    aria-label={t`Edit ${macro.title}`}
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                    <Trans>Edit</Trans>
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setEditing({ kind: "delete", macro })}
                    aria-label={t`Delete ${macro.title}`}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    <Trans>Delete</Trans>
                  </Button>
                </div>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      {canCreate && shown.length > 0 ? (
        <div className="flex justify-end border-b border-slate-100 px-5 py-3">
          <NewMacroButton onClick={() => setEditing({ kind: "create" })} />
        </div>
      ) : null}
      {content}
      {editing?.kind === "create" ? (
        <MacroFormDialog scope={scope} choices={choices} onClose={close} />
      ) : null}
      {editing?.kind === "edit" ? (
        <MacroFormDialog macro={editing.macro} scope={scope} choices={choices} onClose={close} />
      ) : null}
      {editing?.kind === "delete" ? <DeleteDialog macro={editing.macro} onClose={close} /> : null}
    </>
  );
}

function NewMacroButton({ onClick }: { onClick: () => void }) {
  return (
    <Button size="sm" onClick={onClick}>
      <Plus aria-hidden="true" className="size-4" />
      <Trans>New macro</Trans>
    </Button>
  );
}

function DeleteDialog({ macro, onClose }: { macro: Macro; onClose: () => void }) {
  const { t } = useLingui();
  const remove = useDeleteMacro();
  return (
    <ConfirmDialog
      title={t`Delete this macro?`}
      description={
        macro.scope === "shared"
          ? t`"${macro.title}" will no longer be offered to anyone.`
          : t`"${macro.title}" will be gone for good.`
      }
      confirmLabel={t`Delete`}
      successMessage={t`Macro deleted`}
      onConfirm={() => remove.mutateAsync(macro.id)}
      onClose={onClose}
    />
  );
}
