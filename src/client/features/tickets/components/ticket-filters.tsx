import type { MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { ListFilter, Search, X } from "lucide-react";
import { type ChangeEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { Field, Input } from "#client/components/ui/field.tsx";
import { optionsOf, Select } from "#client/components/ui/select.tsx";
import { priorityLabels, statusLabels } from "#client/features/tickets/ticket-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import {
  type TicketCategory,
  type TicketDueFilter,
  type TicketPriority,
  type TicketStatus,
  ticketCategories,
  ticketDueFilters,
  ticketPriorities,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";

/** What a person narrows a list by; kept in the page's URL so that it survives reloads and links. */
export interface TicketSearch {
  q: string;
  status?: TicketStatus;
  priority?: TicketPriority;
  category?: TicketCategory;
  /** Staff: Overdue or Due soon. The order has its own control on the list (ticket-sort.tsx). */
  due?: TicketDueFilter;
  /** Decision 070: only the tickets on hold, or only those not; as in the address (`?onHold=true`). */
  onHold?: OnHoldFilter;
  /** Decision 073 (staff): one team's tickets, by its id (`?team=`). */
  team?: string;
  /** Decision 071 (staff): one tag, as in the address (`?tag=vpn`). */
  tag?: string;
}

const onHoldFilters = ["true", "false"] as const;
type OnHoldFilter = (typeof onHoldFilters)[number];

/** The list's onHold parameter for the search's choice. */
export const onHoldOf = (search: TicketSearch): boolean | undefined =>
  search.onHold === undefined ? undefined : search.onHold === "true";

const pick = <T extends string>(values: readonly T[], raw: string | null) =>
  values.find((value) => value === raw);

/** A team's id as the list's team filter takes it (teamIdSchema's shape); anything else is no filter. */
const teamIdOf = (raw: string | null) => (raw && /^[A-Za-z0-9_-]{1,100}$/.test(raw) ? raw : undefined);

/** ?q=printer&status=Open → the search; unknown values are ignored rather than sent to the server. */
export function ticketSearchFrom(params: URLSearchParams): TicketSearch {
  return {
    q: params.get("q") ?? "",
    status: pick(ticketStatuses, params.get("status")),
    priority: pick(ticketPriorities, params.get("priority")),
    category: pick(ticketCategories, params.get("category")),
    due: pick(ticketDueFilters, params.get("due")),
    onHold: pick(onHoldFilters, params.get("onHold")),
    team: teamIdOf(params.get("team")),
    tag: params.get("tag") || undefined,
  };
}

/** The URL's query string with `change` applied; an empty value removes its parameter. */
export function withTicketSearch(params: URLSearchParams, change: Partial<TicketSearch>) {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(change)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

export const isFiltered = (search: TicketSearch) =>
  search.q.trim() !== "" ||
  Boolean(
    search.status ||
      search.priority ||
      search.category ||
      search.due ||
      search.onHold ||
      search.team ||
      search.tag,
  );

const searchDelayMs = 300;
const withAll = (values: readonly string[], labels?: Record<string, MessageDescriptor>) => [
  { value: "", label: t`All` },
  ...optionsOf(values).map((option) => ({
    ...option,
    label: labels?.[option.value] ? i18n._(labels[option.value]!) : option.label,
  })),
];

const dueOptions = () =>
  [
    { value: "", label: t`All` },
    { value: "overdue", label: t`Overdue` },
    { value: "due_soon", label: t`Due soon` },
  ] satisfies Array<{ value: TicketDueFilter | ""; label: string }>;

const onHoldOptions = () =>
  [
    { value: "", label: t`All` },
    { value: "true", label: t`On hold` },
    { value: "false", label: t`Not on hold` },
  ] satisfies Array<{ value: OnHoldFilter | ""; label: string }>;

/** "All", then the tags in use; a tag from the address that is not among them is still offered. */
const tagOptions = (tags: readonly string[], current: string | undefined) => [
  { value: "", label: t`All` },
  ...optionsOf(current && !tags.includes(current) ? [current, ...tags] : tags),
];

interface TicketFiltersProps {
  value: TicketSearch;
  onChange: (change: Partial<TicketSearch>) => void;
  /** Staff see service levels: the Due filter. */
  showDue?: boolean;
  /** Staff (decision 071): the tags to filter by, most used first; without it there is no Tag filter. */
  tags?: readonly string[];
  /** More filters (the custom fields'), folded with these on a phone; `moreActive` of them are on. */
  more?: ReactNode;
  moreActive?: number;
  /** Staff: the teams to narrow by (decision 073); no Team filter when there are none. */
  teams?: readonly { id: string; name: string }[];
  /**
   * The saved views (decision 071): above the search from sm up; on a phone folded with the filters, after
   * them, so that the list still starts on the first screen.
   */
  views?: ReactNode;
}

/**
 * Search box (debounced) and the Status, Priority and Category filters, each with "All". On a phone
 * (below the sm breakpoint) the filters fold behind a Filters button that says how many are on, so the
 * list starts on the first screen; from sm up they are always shown and the button is not.
 */
export function TicketFilters({
  value,
  onChange,
  showDue = false,
  tags,
  more,
  moreActive = 0,
  teams = [],
  views,
}: TicketFiltersProps) {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const activeCount =
    [value.status, value.priority, value.category, value.due, value.onHold, value.team, value.tag].filter(
      Boolean,
    ).length + moreActive;
  const folded = isOpen ? undefined : "max-sm:hidden";
  const panelIds = [
    `${id}-fold`,
    `${id}-fold-more-filters`,
    more ? `${id}-fold-more` : null,
    views ? `${id}-fold-views` : null,
  ]
    .filter(Boolean)
    .join(" ");
  const [text, setText] = useState(value.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastSent = useRef(value.q);

  // The URL changed by other means (Back, Clear filters): show its search, not the old text.
  useEffect(() => {
    if (value.q === lastSent.current) return;
    lastSent.current = value.q;
    clearTimeout(timer.current);
    setText(value.q);
  }, [value.q]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The list is drawn by the server (decision 065): what was typed into the search before the app had the
  // page is in the box but reached no handler. Taken up once the app has it, as if typed now.
  const searchBox = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the app takes the drawn box over
  useEffect(() => {
    const typed = searchBox.current?.value ?? "";
    if (typed === text) return;
    setText(typed);
    lastSent.current = typed;
    onChange({ q: typed });
  }, []);

  function handleType(event: ChangeEvent<HTMLInputElement>) {
    const next = event.target.value;
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      lastSent.current = next;
      onChange({ q: next });
    }, searchDelayMs);
  }

  function handleClear() {
    clearTimeout(timer.current);
    setText("");
    lastSent.current = "";
    onChange({
      q: "",
      status: undefined,
      priority: undefined,
      category: undefined,
      due: undefined,
      onHold: undefined,
      team: undefined,
      tag: undefined,
    });
  }

  const select = (
    name: "status" | "priority" | "category",
    values: readonly string[],
    labels?: Record<string, MessageDescriptor>,
  ) => ({
    id: `${id}-${name}`,
    name,
    value: value[name] ?? "",
    options: withAll(values, labels),
    onChange: (event: ChangeEvent<HTMLSelectElement>) => onChange({ [name]: event.target.value }),
  });

  return (
    <div className="flex flex-col gap-3">
      {views ? (
        <div
          id={`${id}-fold-views`}
          className={cn("order-last sm:order-first sm:border-b sm:border-slate-100 sm:pb-3", folded)}
        >
          {views}
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_10rem_10rem_10rem_auto] lg:items-end">
        <Field label={t`Search tickets`} htmlFor={`${id}-q`} className="sm:col-span-2 lg:col-span-1">
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            />
            <Input
              ref={searchBox}
              id={`${id}-q`}
              type="search"
              value={text}
              onChange={handleType}
              placeholder={t`Title, description or TKT id`}
              autoComplete="off"
              className="pl-9"
            />
          </div>
        </Field>
        <Button
          variant="secondary"
          aria-expanded={isOpen}
          aria-controls={panelIds}
          onClick={() => setIsOpen((open) => !open)}
          className="justify-self-start sm:hidden"
        >
          <ListFilter aria-hidden="true" className="size-4" />
          {activeCount > 0 ? t`Filters (${activeCount})` : t`Filters`}
        </Button>
        {/* One grid with the search from sm up, as before the fold: `contents` lets these be its cells. */}
        <div id={`${id}-fold`} className={cn("contents", folded)}>
          <Field label={t`Status`} htmlFor={`${id}-status`}>
            <Select {...select("status", ticketStatuses, statusLabels)} />
          </Field>
          <Field label={t`Priority`} htmlFor={`${id}-priority`}>
            <Select {...select("priority", ticketPriorities, priorityLabels)} />
          </Field>
          <Field label={t`Category`} htmlFor={`${id}-category`}>
            <Select {...select("category", ticketCategories, categoryLabels)} />
          </Field>
          <Button
            variant="ghost"
            onClick={handleClear}
            disabled={!isFiltered({ ...value, q: text })}
            className="justify-self-start"
          >
            <X aria-hidden="true" className="size-4" />
            <Trans>Clear</Trans>
          </Button>
        </div>
      </div>
      <div
        id={`${id}-fold-more-filters`}
        className={cn("grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fill,10rem)]", folded)}
      >
        {showDue ? (
          <Field label={t`Due`} htmlFor={`${id}-due`}>
            <Select
              id={`${id}-due`}
              name="due"
              value={value.due ?? ""}
              options={dueOptions()}
              onChange={(event) => onChange({ due: pick(ticketDueFilters, event.target.value) })}
            />
          </Field>
        ) : null}
        <Field label={t`On hold`} htmlFor={`${id}-on-hold`}>
          <Select
            id={`${id}-on-hold`}
            name="onHold"
            value={value.onHold ?? ""}
            options={onHoldOptions()}
            onChange={(event) => onChange({ onHold: pick(onHoldFilters, event.target.value) })}
          />
        </Field>
        <TeamFilterField id={`${id}-team`} teams={teams} value={value.team} onChange={onChange} />
        {tags ? <TagFilterField id={`${id}-tag`} tags={tags} value={value.tag} onChange={onChange} /> : null}
      </div>
      {more ? (
        <div id={`${id}-fold-more`} className={cn("empty:hidden", folded)}>
          {more}
        </div>
      ) : null}
    </div>
  );
}

interface FilterFieldProps {
  id: string;
  onChange: (change: Partial<TicketSearch>) => void;
}

/** Decision 073 (staff): one team's tickets; shown once there are teams. */
function TeamFilterField({
  id,
  teams,
  value,
  onChange,
}: FilterFieldProps & { teams: ReadonlyArray<{ id: string; name: string }>; value?: string }) {
  if (teams.length === 0) return null;
  return (
    <Field label={t`Team`} htmlFor={id}>
      <Select
        id={id}
        name="team"
        value={value ?? ""}
        options={[
          { value: "", label: t`All` },
          ...teams.map((team) => ({ value: team.id, label: team.name })),
        ]}
        onChange={(event) => onChange({ team: teamIdOf(event.target.value) })}
      />
    </Field>
  );
}

/** Decision 071 (staff): one tag, among those in use. */
function TagFilterField({
  id,
  tags,
  value,
  onChange,
}: FilterFieldProps & { tags: readonly string[]; value?: string }) {
  return (
    <Field label={t`Tag`} htmlFor={id}>
      <Select
        id={id}
        name="tag"
        value={value ?? ""}
        options={tagOptions(tags, value)}
        onChange={(event) => onChange({ tag: event.target.value || undefined })}
      />
    </Field>
  );
}
