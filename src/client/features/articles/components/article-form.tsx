import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { ImagePlus, LoaderCircle } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Input, Textarea } from "#client/components/ui/field.tsx";
import { FileDropZone } from "#client/components/ui/file-drop-zone.tsx";
import { FilePickerButton } from "#client/components/ui/file-picker-button.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSaveArticle } from "#client/features/articles/articles.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { handlePastedFiles } from "#client/lib/attachment-upload.ts";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import {
  type ArticleStatus,
  type ArticleVisibility,
  articleStatuses,
  articleVisibilities,
} from "#shared/articles/article.schemas.ts";
import { imageAcceptAttribute, imageTypesDescription } from "#shared/attachments/attachment-types.ts";
import { type TicketCategory, ticketCategories } from "#shared/tickets/ticket.schemas.ts";
import { useArticleImages } from "./use-article-images.ts";

export interface ArticleFormValues {
  title: string;
  body: string;
  category: TicketCategory;
  tags: string[];
  status: ArticleStatus;
  visibility: ArticleVisibility;
}

interface ArticleFormProps {
  /** null: a new article. */
  articleId: number | null;
  initial: ArticleFormValues;
  onSaved: (article: { slug: string }) => void;
  onCancel: () => void;
}

export const articleStatusLabels: Record<ArticleStatus, MessageDescriptor> = {
  draft: msg`Draft`,
  published: msg`Published`,
};
const visibilityLabels: Record<ArticleVisibility, MessageDescriptor> = {
  public: msg`Public (everyone signed in)`,
  internal: msg`Internal (staff only)`,
};

/** Write or edit an article in Markdown, with images inserted at the cursor; every save keeps a revision. */
export function ArticleForm({ articleId, initial, onSaved, onCancel }: ArticleFormProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [values, setValues] = useState(initial);
  const [tagsText, setTagsText] = useState(initial.tags.join(", "));
  const save = useSaveArticle(articleId);
  const issues = isApiError(save.error) ? save.error.issues : [];
  const issueFor = (name: string) => issues.find((issue) => issue.path[0] === name)?.message;
  const set = <K extends keyof ArticleFormValues>(key: K, value: ArticleFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const images = useArticleImages({
    textareaRef,
    updateBody: (update) => setValues((current) => ({ ...current, body: update(current.body) })),
  });

  return (
    <form
      noValidate
      className="grid grid-cols-1 gap-5 sm:grid-cols-6"
      onSubmit={(event) => {
        event.preventDefault();
        const tags = tagsText
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean);
        save.mutate({ ...values, tags }, { onSuccess: (article) => onSaved(article) });
      }}
    >
      <Field label={t`Title`} htmlFor={`${id}-title`} error={issueFor("title")} className="sm:col-span-6">
        <Input
          id={`${id}-title`}
          value={values.title}
          onChange={(event) => set("title", event.target.value)}
        />
      </Field>
      <Field label={t`Category`} htmlFor={`${id}-category`} className="sm:col-span-2">
        <Select
          id={`${id}-category`}
          value={values.category}
          options={labelledOptions(ticketCategories, categoryLabels)}
          onChange={(event) => set("category", event.target.value as TicketCategory)}
        />
      </Field>
      <Field label={t`Status`} htmlFor={`${id}-status`} className="sm:col-span-2">
        <Select
          id={`${id}-status`}
          value={values.status}
          options={articleStatuses.map((value) => ({ value, label: i18n._(articleStatusLabels[value]) }))}
          onChange={(event) => set("status", event.target.value as ArticleStatus)}
        />
      </Field>
      <Field label={t`Visibility`} htmlFor={`${id}-visibility`} className="sm:col-span-2">
        <Select
          id={`${id}-visibility`}
          value={values.visibility}
          options={articleVisibilities.map((value) => ({ value, label: i18n._(visibilityLabels[value]) }))}
          onChange={(event) => set("visibility", event.target.value as ArticleVisibility)}
        />
      </Field>
      <Field
        label={t`Tags (comma-separated)`}
        htmlFor={`${id}-tags`}
        error={issueFor("tags")}
        className="sm:col-span-6"
      >
        <Input id={`${id}-tags`} value={tagsText} onChange={(event) => setTagsText(event.target.value)} />
      </Field>
      <FileDropZone onFiles={images.insert} className="flex flex-col gap-2 sm:col-span-6">
        <Field label={t`Text (Markdown)`} htmlFor={`${id}-body`} error={issueFor("body")}>
          <Textarea
            ref={textareaRef}
            id={`${id}-body`}
            rows={14}
            value={values.body}
            onChange={(event) => set("body", event.target.value)}
            onPaste={handlePastedFiles(images.insert)}
            className="font-mono"
          />
        </Field>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <FilePickerButton
            label={t`Insert image`}
            icon={ImagePlus}
            accept={imageAcceptAttribute}
            onFiles={images.insert}
          />
          <span className="text-xs text-slate-500">
            <Trans>or drop or paste {imageTypesDescription} into the text</Trans>
          </span>
          {images.isUploading ? (
            <span role="status" className="flex items-center gap-1.5 text-xs text-slate-600">
              <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" />
              {images.uploading === 1 ? t`Uploading an image…` : t`Uploading ${images.uploading} images…`}
            </span>
          ) : null}
        </div>
        {images.errors.length > 0 ? (
          <Alert>
            {[...new Set(images.errors)].map((error) => (
              <p key={error}>{error}</p>
            ))}
          </Alert>
        ) : null}
      </FileDropZone>
      {save.isError && issues.length === 0 ? (
        <div className="sm:col-span-6">
          <Alert>{save.error.message}</Alert>
        </div>
      ) : null}
      <div className="flex gap-3 sm:col-span-6">
        {/* Not while an image uploads: its placeholder would be saved instead of the image. */}
        <Button type="submit" disabled={save.isPending || images.isUploading}>
          {save.isPending ? t`Saving…` : t`Save article`}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
