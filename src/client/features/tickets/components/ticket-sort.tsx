import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type ChangeEvent, useId } from "react";
import { Select } from "#client/components/ui/select.tsx";
import { i18n } from "#client/lib/i18n.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import {
  defaultSortDirection,
  type SortDirection,
  sortDirections,
  type TicketSort,
  ticketSorts,
} from "#shared/tickets/ticket-order.ts";

/** A list's order as the address holds it (?sort=priority&dir=desc); nothing means newest first. */
export interface TicketOrder {
  sort?: TicketSort;
  dir?: SortDirection;
}

/** Each choice of the Sort control: one order in one direction (the due-time order is staff's). */
export const ticketOrderOptions = [
  { value: "created.desc", label: msg`Newest first` },
  { value: "created.asc", label: msg`Oldest first` },
  { value: "updated.desc", label: msg`Recently updated` },
  { value: "updated.asc", label: msg`Least recently updated` },
  { value: "priority.desc", label: msg`Priority: High to Low` },
  { value: "priority.asc", label: msg`Priority: Low to High` },
  { value: "status.asc", label: msg`Status: Open to Closed` },
  { value: "status.desc", label: msg`Status: Closed to Open` },
  { value: "due.asc", label: msg`Due time (earliest first)` },
] as const;

const pick = <T extends string>(values: readonly T[], raw: string | null) =>
  values.find((value) => value === raw);

/** ?sort=…&dir=… → the order; unknown values are ignored rather than sent to the server. */
export function ticketOrderFrom(params: URLSearchParams): TicketOrder {
  const sort = pick(ticketSorts, params.get("sort"));
  const dir = sort && sort !== "due" ? pick(sortDirections, params.get("dir")) : undefined;
  return { ...(sort ? { sort } : {}), ...(dir ? { dir } : {}) };
}

/** The Sort control's value for an order: "newest" is created, descending. */
export function ticketOrderValue({ sort, dir }: TicketOrder): string {
  const key = !sort || sort === "newest" ? "created" : sort;
  return `${key}.${key === "due" ? "asc" : (dir ?? defaultSortDirection(key))}`;
}

/** The address with the chosen order; newest first (the default) leaves no parameter behind. */
export function withTicketOrder(params: URLSearchParams, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("sort");
  next.delete("dir");
  const [sort, dir] = value.split(".");
  const knownSort = pick(ticketSorts, sort ?? null);
  if (!knownSort || value === "created.desc") return next;
  next.set("sort", knownSort);
  const knownDir = pick(sortDirections, dir ?? null);
  if (knownSort !== "due" && knownDir) next.set("dir", knownDir);
  return next;
}

/**
 * The page's order from its address, and a setter that keeps the other parameters (the filters); the
 * due-time order is dropped for those who may not use it.
 */
export function useTicketOrder(canSortByDue: boolean): [TicketOrder, (value: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const order = ticketOrderFrom(searchParams);
  const allowed = order.sort === "due" && !canSortByDue ? {} : order;
  return [
    allowed,
    (value) => setSearchParams((current) => withTicketOrder(current, value), { replace: true }),
  ];
}

/** The label of the order, e.g. "Priority: High to Low", for a page's description. */
export const ticketOrderLabel = (order: TicketOrder) =>
  i18n._(
    ticketOrderOptions.find((option) => option.value === ticketOrderValue(order))?.label ?? msg`Newest first`,
  );

interface TicketSortSelectProps {
  value: TicketOrder;
  onChange: (value: string) => void;
  showDue?: boolean;
}

export function TicketSortSelect({ value, onChange, showDue = false }: TicketSortSelectProps) {
  const id = useId();
  const { i18n } = useLingui();
  const options = ticketOrderOptions
    .filter((option) => showDue || option.value !== "due.asc")
    .map((option) => ({ value: option.value, label: i18n._(option.label) }));
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-sm text-slate-600">
        <Trans>Sort by</Trans>
      </label>
      <Select
        id={id}
        name="sort"
        value={ticketOrderValue(value)}
        options={options}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.target.value)}
        className="w-auto min-w-0"
      />
    </div>
  );
}
