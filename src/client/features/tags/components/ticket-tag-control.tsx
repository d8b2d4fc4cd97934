import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { errorIdFor, Input } from "#client/components/ui/field.tsx";
import { tagSuggestionsQuery, useChangeTicketTags } from "#client/features/tags/tags.api.ts";
import { toast } from "#client/lib/toast.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { tagSchema } from "#shared/tags/tag.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { TagBadges } from "./tag-badges.tsx";

interface TicketTagControlProps {
  actor: Actor;
  ticket: Ticket;
  /** The changed ticket, for the page to show (the ticket's caches are the tickets feature's). */
  onChanged: (ticket: Ticket) => void;
  /** A refusal: the page reads the ticket again. */
  onRefused: (error: Error) => void;
}

/**
 * A ticket's tags on its page (decision 071, staff): each with a button that removes it, and a field that
 * adds one — free text with the tags in use suggested (most used first), or only the admin's fixed list.
 * Others who see tags read them.
 */
export function TicketTagControl({ actor, ticket, onChanged, onRefused }: TicketTagControlProps) {
  const { t } = useLingui();
  const id = useId();
  const isHydrated = useHydrated();
  const canChange = can.changeTicketTags(actor, ticket);
  const suggestions = useQuery({ ...tagSuggestionsQuery(), enabled: canChange });
  const change = useChangeTicketTags(ticket.ticketId);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const tags = ticket.tags ?? [];
  const isFixed = suggestions.data?.fixed ?? false;
  const offered = (suggestions.data?.items ?? [])
    .map((item) => item.tag)
    .filter((tag) => !tags.includes(tag));

  async function send(tagChange: { add?: string[]; remove?: string[] }, done: string) {
    try {
      const changed = await change.mutateAsync(tagChange);
      onChanged(changed);
      toast.success(done);
      return true;
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : t`The tags could not be saved.`;
      toast.error(message);
      onRefused(failure instanceof Error ? failure : new Error(String(failure)));
      return false;
    }
  }

  async function handleAdd(event: FormEvent) {
    event.preventDefault();
    // Several at once, separated by commas; each checked by the rule the server applies.
    const words = text.split(",").filter((word) => word.trim() !== "");
    const parsed = words.map((word) => tagSchema.safeParse(word));
    const invalid = parsed.find((result) => !result.success);
    if (words.length === 0 || invalid) {
      setError(invalid && !invalid.success ? invalid.error.issues[0]?.message : t`Type a tag first`);
      return;
    }
    setError(undefined);
    const add = parsed.flatMap((result) => (result.success ? [result.data] : []));
    if (await send({ add }, add.length === 1 ? t`Tag added` : t`Tags added`)) setText("");
  }

  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Tags</Trans>
      </h2>
      <div className="mt-3 flex flex-wrap gap-1.5">
        {tags.length === 0 ? (
          <p className="text-sm text-slate-500">
            <Trans>No tags yet.</Trans>
          </p>
        ) : canChange ? (
          <RemovableTags
            tags={tags}
            disabled={!isHydrated || change.isPending}
            onRemove={(tag) => void send({ remove: [tag] }, t`Tag removed`)}
          />
        ) : (
          <TagBadges tags={tags} />
        )}
      </div>
      {canChange ? (
        <form onSubmit={(event) => void handleAdd(event)} className="mt-3 flex flex-col gap-1.5" noValidate>
          <label htmlFor={id} className="text-sm font-medium text-slate-700">
            <Trans>Add a tag</Trans>
          </label>
          <div className="flex gap-2">
            <Input
              id={id}
              name="tag"
              className="h-8 min-w-0 flex-1 py-1"
              value={text}
              autoComplete="off"
              maxLength={200}
              list={offered.length > 0 ? `${id}-suggestions` : undefined}
              invalid={error !== undefined}
              onChange={(event) => {
                setText(event.target.value);
                setError(undefined);
              }}
            />
            {offered.length > 0 ? (
              <datalist id={`${id}-suggestions`}>
                {offered.map((tag) => (
                  <option key={tag} value={tag} />
                ))}
              </datalist>
            ) : null}
            <Button type="submit" size="sm" variant="secondary" disabled={!isHydrated || change.isPending}>
              {change.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              <Trans>Add</Trans>
            </Button>
          </div>
          {error ? (
            <p id={errorIdFor(id)} className="text-sm text-red-600">
              {error}
            </p>
          ) : isFixed ? (
            <p className="text-xs text-slate-500">
              <Trans>Only the tags an administrator listed can be added.</Trans>
            </p>
          ) : null}
        </form>
      ) : null}
    </Card>
  );
}

/** Each tag with a button that removes it. */
function RemovableTags({
  tags,
  disabled,
  onRemove,
}: {
  tags: readonly string[];
  disabled: boolean;
  onRemove: (tag: string) => void;
}) {
  const { t } = useLingui();
  return tags.map((tag) => (
    <span
      key={tag}
      className="inline-flex items-center gap-0.5 rounded-full bg-indigo-50 py-0.5 pr-0.5 pl-2 text-xs font-medium text-indigo-700 ring-1 ring-indigo-600/20 ring-inset"
    >
      {tag}
      <button
        type="button"
        className="rounded-full p-1 hover:bg-indigo-100 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none disabled:opacity-50"
        aria-label={t`Remove tag ${tag}`}
        disabled={disabled}
        onClick={() => onRemove(tag)}
      >
        <X aria-hidden="true" className="size-3" />
      </button>
    </span>
  ));
}
