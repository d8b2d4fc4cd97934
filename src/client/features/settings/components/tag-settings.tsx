import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { Field, Textarea } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import { type TagSettings, tagSettingsSchema } from "#shared/tags/tag.schemas.ts";

/**
 * Admin settings › Tags (decision 071): whether staff may add any tag (free text, with the tags in use
 * suggested) or only the tags listed here. Tags already on tickets stay when the list is turned on.
 */
export function TagSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<TagSettings>("tags"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading the tag settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed message={t`The tag settings could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  }
  return <TagSettingsForm saved={query.data.value} />;
}

function TagSettingsForm({ saved }: { saved: TagSettings }) {
  const { t } = useLingui();
  const switchLabelId = useId();
  const listId = useId();
  const save = useSaveSetting<TagSettings>("tags");
  const [isFixed, setIsFixed] = useState(saved.fixed);
  const [text, setText] = useState(saved.allowed.join("\n"));
  const [listError, setListError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  async function handleSave(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    // One tag a line (commas separate too); the shared schema normalises and checks each.
    const allowed = text.split(/[\n,]/).filter((line) => line.trim() !== "");
    const parsed = tagSettingsSchema.safeParse({ fixed: isFixed, allowed });
    if (!parsed.success) {
      setListError(parsed.error.issues[0]?.message);
      return;
    }
    setListError(undefined);
    setIsSaving(true);
    try {
      const stored = await save.mutateAsync(parsed.data);
      setText(stored.value.allowed.join("\n"));
      toast.success(settingsSaved);
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The settings could not be saved.`);
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void handleSave(event)} className="flex max-w-xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Tags</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          <Trans>
            Technicians and administrators tag tickets to find them again; requesters never see tags. By
            default any tag may be typed, and the tags in use are suggested. With a fixed list, only the tags
            listed here can be added; tags already on tickets stay until someone removes them.
          </Trans>
        </p>
      </div>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex items-center justify-between gap-4">
        <p id={switchLabelId} className="text-sm font-medium text-slate-900">
          <Trans>Allow only the listed tags</Trans>
        </p>
        <button
          type="button"
          role="switch"
          aria-checked={isFixed}
          aria-labelledby={switchLabelId}
          onClick={() => setIsFixed((fixed) => !fixed)}
          className={cn(
            "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
            isFixed ? "bg-indigo-600" : "bg-slate-300",
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              "inline-block size-5 rounded-full bg-white shadow transition-transform",
              isFixed ? "translate-x-5.5" : "translate-x-0.5",
            )}
          />
        </button>
      </div>
      <Field label={t`Allowed tags, one a line`} htmlFor={listId} error={listError}>
        <Textarea
          id={listId}
          value={text}
          invalid={listError !== undefined}
          onChange={(event) => {
            setText(event.target.value);
            setListError(undefined);
          }}
        />
      </Field>
      <div>
        <Button type="submit" disabled={isSaving}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  );
}
