import { type RefObject, useEffect, useState } from "react";
import {
  type BackToListState,
  type OpenTicketState,
  rememberedSelection,
  rememberListSelection,
} from "#client/lib/list-memory.ts";
import { useLocation, useNavigate } from "#client/lib/router/router.tsx";
import { useShortcuts } from "#client/lib/use-shortcuts.ts";

/** Where the list is, for `u` to come back to it (the search and filters are in the address). */
function usePathOfList(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

const rowOf = (list: HTMLElement | null, ticketId: string) =>
  list?.querySelector<HTMLElement>(`[data-ticket-id="${CSS.escape(ticketId)}"]`) ?? null;

/**
 * The queue by keyboard: j/↓ and k/↑ move a visible selection through the rows (the selected row has
 * focus, so Enter opens it and a screen reader reads it), o opens it. ↓/↑ act only inside the list, so
 * the page still scrolls with them elsewhere. Coming back from a ticket selects its row again.
 */
export function useTicketListKeys(ticketIds: string[], list: RefObject<HTMLElement | null>) {
  const navigate = useNavigate();
  const location = useLocation();
  const path = usePathOfList();
  const [selectedId, setSelectedId] = useState<string | null>(() => rememberedSelection(path));
  const cameBackByKeyboard = (location.state as BackToListState | null)?.fromKeyboard === true;
  const remembered = ticketIds.includes(selectedId ?? "") ? selectedId : null;

  // Back from the ticket page by keyboard: the row that was selected gets focus again, once it is shown.
  useEffect(() => {
    if (cameBackByKeyboard && remembered) rowOf(list.current, remembered)?.focus();
  }, [cameBackByKeyboard, remembered, list]);

  function select(ticketId: string) {
    setSelectedId(ticketId);
    rememberListSelection(path, ticketId);
    rowOf(list.current, ticketId)?.focus();
  }

  function move(step: 1 | -1) {
    if (ticketIds.length === 0) return;
    const index = remembered ? ticketIds.indexOf(remembered) : -1;
    const next = index === -1 ? (step === 1 ? 0 : ticketIds.length - 1) : index + step;
    select(ticketIds[Math.min(Math.max(next, 0), ticketIds.length - 1)]!);
  }

  const isInList = () => list.current?.contains(document.activeElement) ?? false;

  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    ArrowDown: () => (isInList() ? move(1) : false),
    ArrowUp: () => (isInList() ? move(-1) : false),
    o: () => {
      if (!remembered) return false;
      rememberListSelection(path, remembered);
      void navigate(`/tickets/${remembered}`, { state: { focusTitle: true } satisfies OpenTicketState });
    },
  });

  return {
    selectedId: remembered,
    /** A row focused some other way (Tab, a click) becomes the selection, so j goes on from there. */
    handleRowFocus: (ticketId: string) => {
      setSelectedId(ticketId);
      rememberListSelection(path, ticketId);
    },
  };
}
