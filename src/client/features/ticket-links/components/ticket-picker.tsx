import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorIdFor, Input } from "#client/components/ui/field.tsx";
import { ticketCandidatesQuery } from "#client/features/ticket-links/ticket-links.api.ts";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";

interface TicketPickerProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Tickets not to offer (the ticket itself). */
  excludeIds: readonly string[];
  error?: string;
  disabled?: boolean;
}

/** What was typed, as a ticket id when it is one (ids are upper case; people type them any way). */
export const typedTicketId = (value: string) => {
  const id = value.trim().toUpperCase();
  return ticketIdPattern.test(id) ? id : null;
};

/**
 * A field for another ticket: its id (TKT…), or words of its title, for which the tickets the person may
 * see are offered through the browser's own suggestion list (each offered by its id, named by its title).
 */
export function TicketPicker({ id, value, onChange, excludeIds, error, disabled }: TicketPickerProps) {
  const { t } = useLingui();
  const [words, setWords] = useState("");
  // Asked a moment after typing stops, not at every key.
  useEffect(() => {
    const typed = value.trim();
    const timer = setTimeout(() => setWords(typed.length >= 2 && !typedTicketId(typed) ? typed : ""), 250);
    return () => clearTimeout(timer);
  }, [value]);
  const candidates = useQuery({ ...ticketCandidatesQuery(words), enabled: words !== "" });
  const offered = (candidates.data ?? []).filter((ticket) => !excludeIds.includes(ticket.ticketId));
  const hintId = `${id}-hint`;
  return (
    <>
      <Input
        id={id}
        name="ticket"
        className="h-9 min-w-0 py-1"
        value={value}
        autoComplete="off"
        maxLength={200}
        placeholder={t`TKT… or words of its title`}
        list={offered.length > 0 ? `${id}-candidates` : undefined}
        invalid={error !== undefined}
        aria-describedby={error ? errorIdFor(id) : hintId}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
      {offered.length > 0 ? (
        <datalist id={`${id}-candidates`}>
          {offered.map((ticket) => (
            <option key={ticket.ticketId} value={ticket.ticketId} label={ticket.title} />
          ))}
        </datalist>
      ) : null}
      {error ? (
        <p id={errorIdFor(id)} className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={hintId} className="text-xs text-slate-500">
          {t`Type its id, or words of its title and pick it from the suggestions.`}
        </p>
      )}
    </>
  );
}
