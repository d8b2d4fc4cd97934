import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Ticket as TicketIcon, UserRound } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { searchQuery } from "#client/features/search/search.api.ts";
import type { OpenTicketState } from "#client/lib/list-memory.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { statusLabels } from "#client/lib/ticket-value-labels.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { useDebouncedValue } from "#client/lib/use-debounced-value.ts";
import type { PersonResult } from "#shared/search/search.schemas.ts";
import { type Ticket, ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";

type Option =
  | { kind: "ticket"; id: string; ticket: Ticket }
  | { kind: "person"; id: string; person: PersonResult };

const roleLabels = { user: msg`User`, technician: msg`Technician`, admin: msg`Administrator` } as const;

/** "tkt-4f2a…" → "TKT4F2A…" when it is a whole ticket id, so Enter opens it before the results arrive. */
function wholeTicketIdIn(text: string): string | null {
  const id = text
    .trim()
    .replace(/^tkt[-\s]+/i, "TKT")
    .toUpperCase();
  return ticketIdPattern.test(id) ? id : null;
}

/**
 * Ctrl/⌘+K: a combobox over the caller's tickets (by id or words) and, for staff, people by name.
 * ↑/↓ move through the results, Enter opens one, Escape closes. Lazy-loaded: it costs nothing until
 * opened. An administrator's person opens user management; a technician sees name and role only.
 */
export default function CommandPalette({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const navigate = useNavigate();
  const actor = useActor();
  const [text, setText] = useState("");
  const [activeIndex, setActiveIndex] = useState(0);
  const q = useDebouncedValue(text.trim(), 200);
  const results = useQuery({ ...searchQuery(q), enabled: q !== "", placeholderData: keepPreviousData });
  const isAdmin = actor?.role === "admin";

  const data = q === "" ? undefined : results.data;
  const tickets = data?.tickets ?? [];
  const people = data?.people ?? [];
  const options: Option[] = [
    ...tickets.map((ticket) => ({ kind: "ticket" as const, id: `${id}-t-${ticket.ticketId}`, ticket })),
    ...(isAdmin
      ? people.map((person) => ({ kind: "person" as const, id: `${id}-p-${person.id}`, person }))
      : []),
  ];
  const active = options[Math.min(activeIndex, options.length - 1)];
  const listboxId = `${id}-listbox`;

  function open(option: Option) {
    onClose();
    if (option.kind === "ticket") {
      void navigate(`/tickets/${option.ticket.ticketId}`, {
        state: { focusTitle: true } satisfies OpenTicketState,
      });
    } else {
      void navigate(`/admin/user-management?${new URLSearchParams({ q: option.person.name })}`);
    }
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (options.length === 0) return;
      const current = active ? options.indexOf(active) : -1;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActiveIndex((current + step + options.length) % options.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const typedId = wholeTicketIdIn(text);
      if (typedId) {
        onClose();
        void navigate(`/tickets/${typedId}`, { state: { focusTitle: true } satisfies OpenTicketState });
      } else if (active) {
        open(active);
      }
    }
  }

  const status =
    text.trim() === ""
      ? t`Type a ticket id (TKT…) or words from a title or description.`
      : results.isFetching || q !== text.trim()
        ? t`Searching…`
        : results.isError
          ? t`The search failed. Try again.`
          : tickets.length + people.length === 0
            ? t`Nothing found.`
            : [
                plural(tickets.length, { one: "# ticket", other: "# tickets" }),
                ...(people.length > 0 ? [plural(people.length, { one: "# person", other: "# people" })] : []),
              ].join(", ");

  return (
    <Dialog
      title={t`Search`}
      description={t`Jump to a ticket by id or words; staff also find people by name.`}
      onClose={onClose}
      placement="top"
    >
      <input
        type="text"
        role="combobox"
        aria-label={t`Search tickets and people`}
        aria-expanded={options.length > 0}
        aria-controls={listboxId}
        aria-autocomplete="list"
        aria-activedescendant={active?.id}
        autoComplete="off"
        spellCheck={false}
        value={text}
        maxLength={200}
        onChange={(event) => {
          setText(event.target.value);
          setActiveIndex(0);
        }}
        onKeyDown={handleKeyDown}
        placeholder={t`TKT… or words`}
        className="block h-11 w-full rounded-lg border-0 px-3.5 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none sm:text-sm"
      />
      <p role="status" className="mt-2 text-xs text-slate-500">
        {status}
      </p>
      <div id={listboxId} role="listbox" aria-label={t`Results`} className="mt-3 flex flex-col gap-1">
        {tickets.length > 0 ? (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role="group", never a fieldset.
          <div role="group" aria-labelledby={`${id}-tickets`}>
            <p id={`${id}-tickets`} role="presentation" className={groupLabel}>
              <Trans>Tickets</Trans>
            </p>
            {options
              .filter((option) => option.kind === "ticket")
              .map((option) => (
                <OptionRow key={option.id} option={option} isActive={option === active} onOpen={open} />
              ))}
          </div>
        ) : null}
        {isAdmin && people.length > 0 ? (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role="group", never a fieldset.
          <div role="group" aria-labelledby={`${id}-people`}>
            <p id={`${id}-people`} role="presentation" className={groupLabel}>
              <Trans>People</Trans>
            </p>
            {options
              .filter((option) => option.kind === "person")
              .map((option) => (
                <OptionRow key={option.id} option={option} isActive={option === active} onOpen={open} />
              ))}
          </div>
        ) : null}
      </div>
      {!isAdmin && people.length > 0 ? (
        // A technician has no person page to open: the names are shown, not offered as choices.
        <section aria-labelledby={`${id}-people-info`} className="mt-3">
          <h3 id={`${id}-people-info`} className={groupLabel}>
            <Trans>People</Trans>
          </h3>
          <ul className="flex flex-col">
            {people.map((person) => (
              <li key={person.id} className="flex items-center gap-3 px-3 py-2 text-sm text-slate-700">
                <UserRound aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                <span className="min-w-0 flex-1 truncate">{person.name}</span>
                <span className="text-xs text-slate-500">{i18n._(roleLabels[person.role])}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="mt-4 hidden text-xs text-slate-400 sm:block">
        <Trans>↑ ↓ to move · Enter to open · Esc to close</Trans>
      </p>
    </Dialog>
  );
}

const groupLabel = "px-3 pt-2 pb-1 text-xs font-medium tracking-wide text-slate-500 uppercase";

interface OptionRowProps {
  option: Option;
  isActive: boolean;
  onOpen: (option: Option) => void;
}

function OptionRow({ option, isActive, onOpen }: OptionRowProps) {
  const { i18n } = useLingui();
  return (
    // Options are chosen with the keyboard from the combobox, or tapped; they never take focus themselves.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keys (aria-activedescendant).
    <div
      id={option.id}
      role="option"
      aria-selected={isActive}
      tabIndex={-1}
      onClick={() => onOpen(option)}
      className={cn(
        "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm",
        isActive ? "bg-indigo-50 text-indigo-900" : "text-slate-700 hover:bg-slate-50",
      )}
    >
      {option.kind === "ticket" ? (
        <>
          <TicketIcon aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{option.ticket.title}</span>
            <span className="block font-mono text-xs text-slate-500">
              {option.ticket.ticketId} · {i18n._(statusLabels[option.ticket.status])}
            </span>
          </span>
        </>
      ) : (
        <>
          <UserRound aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
          <span className="min-w-0 flex-1 truncate font-medium">{option.person.name}</span>
          <span className="text-xs text-slate-500">{i18n._(roleLabels[option.person.role])}</span>
        </>
      )}
    </div>
  );
}
