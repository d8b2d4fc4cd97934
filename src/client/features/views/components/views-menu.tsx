import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Bookmark, PencilLine, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { controlClass, Field, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useDeleteView, useSaveView, viewListQuery } from "#client/features/views/views.api.ts";
import { i18n } from "#client/lib/i18n.ts";
import { toast } from "#client/lib/toast.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { normalizeViewQuery, type SavedView, type ViewSharing } from "#shared/views/view.schemas.ts";

interface ViewsMenuProps {
  actor: Actor;
  /** The list's query string as it is now (the address's). */
  query: string;
  /** Opens a view: the page sets the address's query to it. */
  onOpen: (query: string) => void;
  /** The teams an administrator may share a view with (given by the page). */
  teams?: ReadonlyArray<{ id: string; name: string }>;
}

const countText = (count: SavedView["count"]) =>
  count ? `${i18n.number(count.count)}${count.capped ? "+" : ""}` : "–";

/**
 * Saved views of the list (decision 071): a menu of the person's views and those shared with them, each
 * with how many tickets it holds for them; opening one sets the address's filters. The current filters are
 * saved under a name; the open view is renamed or deleted by whoever may manage it.
 */
export function ViewsMenu({ actor, query, onOpen, teams = [] }: ViewsMenuProps) {
  const { t } = useLingui();
  const id = useId();
  const isHydrated = useHydrated();
  const views = useQuery(viewListQuery());
  const [dialog, setDialog] = useState<"save" | "rename" | "delete" | null>(null);
  const normalized = normalizeViewQuery(query);
  const items = views.data ?? [];
  const current = items.find((view) => view.query === normalized);
  const mine = items.filter((view) => view.sharing === "personal");
  const shared = items.filter((view) => view.sharing !== "personal");
  const optionLabel = (view: SavedView) => `${view.name} (${countText(view.count)})`;

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 sm:max-w-xs">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          <Trans>Views</Trans>
        </label>
        <select
          id={id}
          className={controlClass(false, "h-9 py-1.5")}
          value={current?.id ?? ""}
          disabled={views.isPending || views.isError}
          onChange={(event) => {
            const view = items.find((item) => item.id === event.target.value);
            if (view) onOpen(view.query);
          }}
        >
          <option value="">{items.length === 0 ? t`No saved views` : t`Choose a view`}</option>
          {mine.length > 0 ? (
            <optgroup label={t`My views`}>
              {mine.map((view) => (
                <option key={view.id} value={view.id}>
                  {optionLabel(view)}
                </option>
              ))}
            </optgroup>
          ) : null}
          {shared.length > 0 ? (
            <optgroup label={t`Shared views`}>
              {shared.map((view) => (
                <option key={view.id} value={view.id}>
                  {optionLabel(view)}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={!isHydrated} onClick={() => setDialog("save")}>
          <Bookmark aria-hidden="true" className="size-4" />
          <Trans>Save view</Trans>
        </Button>
        {current?.canManage ? (
          <>
            <Button variant="ghost" size="sm" disabled={!isHydrated} onClick={() => setDialog("rename")}>
              <PencilLine aria-hidden="true" className="size-4" />
              <Trans>Rename</Trans>
            </Button>
            <Button variant="ghost" size="sm" disabled={!isHydrated} onClick={() => setDialog("delete")}>
              <Trash2 aria-hidden="true" className="size-4" />
              <Trans>Delete</Trans>
            </Button>
          </>
        ) : null}
      </div>
      {dialog === "save" ? (
        <ViewDialog
          actor={actor}
          query={normalized}
          teams={teams}
          view={null}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === "rename" && current ? (
        <ViewDialog
          actor={actor}
          query={current.query}
          teams={teams}
          view={current}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === "delete" && current ? (
        <DeleteViewDialog view={current} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}

function DeleteViewDialog({ view, onClose }: { view: SavedView; onClose: () => void }) {
  const { t } = useLingui();
  const remove = useDeleteView();
  const name = view.name;
  return (
    <ConfirmDialog
      title={t`Delete the view “${name}”?`}
      description={
        view.sharing === "personal"
          ? t`The tickets stay as they are; only the saved filters go.`
          : t`It is shared: it goes for everyone who sees it. The tickets stay as they are.`
      }
      confirmLabel={t`Delete`}
      successMessage={t`View deleted`}
      onConfirm={() => remove.mutateAsync(view.id)}
      onClose={onClose}
    />
  );
}

interface ViewDialogProps {
  actor: Actor;
  query: string;
  teams: ReadonlyArray<{ id: string; name: string }>;
  /** The view renamed; null to save the current filters as a new one. */
  view: SavedView | null;
  onClose: () => void;
}

/** Names a view (new, or renamed); an administrator also chooses with whom it is shared. */
function ViewDialog({ actor, query, teams, view, onClose }: ViewDialogProps) {
  const { t } = useLingui();
  const save = useSaveView();
  const sharingId = useId();
  const [name, setName] = useState(view?.name ?? "");
  const [sharing, setSharing] = useState<ViewSharing>(view?.sharing ?? "personal");
  const [teamId, setTeamId] = useState(view?.teamId ?? teams[0]?.id ?? "");
  const [error, setError] = useState<string | null>(null);
  const canShare = can.shareViews(actor);
  const sharingOptions = [
    { value: "personal", label: t`Only me` },
    { value: "staff", label: t`All staff` },
    ...(teams.length > 0 ? [{ value: "team", label: t`A team` }] : []),
  ];

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === "") {
      setError(t`Name is required`);
      return;
    }
    try {
      await save.mutateAsync({
        id: view?.id ?? null,
        input: {
          name,
          query,
          sharing,
          teamId: sharing === "team" ? teamId : null,
        },
      });
      toast.success(view ? t`View renamed` : t`View saved`);
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t`The view could not be saved.`);
    }
  }

  return (
    <Dialog
      title={view ? t`Rename view` : t`Save view`}
      description={view ? undefined : t`Saves the list's current filters and order under a name.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
        {error ? <Alert>{error}</Alert> : null}
        <TextField
          label={t`Name`}
          value={name}
          maxLength={60}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
        />
        {canShare ? (
          <Field label={t`Shared with`} htmlFor={sharingId}>
            <Select
              id={sharingId}
              options={sharingOptions}
              value={sharing}
              onChange={(event) => setSharing(event.target.value as ViewSharing)}
            />
          </Field>
        ) : null}
        {canShare && sharing === "team" ? (
          <TeamSelect teams={teams} value={teamId} onChange={setTeamId} />
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {view ? <Trans>Rename</Trans> : <Trans>Save</Trans>}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function TeamSelect({
  teams,
  value,
  onChange,
}: {
  teams: ReadonlyArray<{ id: string; name: string }>;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  return (
    <Field label={t`Team`} htmlFor={id}>
      <Select
        id={id}
        options={teams.map((team) => ({ value: team.id, label: team.name }))}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
