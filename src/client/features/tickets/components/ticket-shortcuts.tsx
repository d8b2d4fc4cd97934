import { useEffect, useRef, useState } from "react";
import { type BackToListState, lastListPath, type OpenTicketState } from "#client/lib/list-memory.ts";
import { useLocation, useNavigate } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { useShortcuts } from "#client/lib/use-shortcuts.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { statusTargets } from "#shared/tickets/ticket-status.ts";
import { useAssignToMeAction } from "./assign-to-me-button.tsx";
import { useChangeStatusAction } from "./change-status-buttons.tsx";

interface TicketShortcutsProps {
  ticketId: string;
  /** The ticket, or null while it loads (or when it could not be loaded). */
  ticket: Ticket | null;
  /** Whether it is still on its way: a, r or c pressed meanwhile is held until it is here. */
  isLoading: boolean;
  /** The page's refusal message, as the buttons report it. */
  onOutcome: (refusal: string | null) => void;
}

/** The keys that act on the ticket, and so wait for it. */
type TicketKey = "a" | "r" | "c";

const isOnPage = (target: EventTarget | null) =>
  target === document.body || (target instanceof Element && target.closest("main") !== null);

const focusStatus = () => document.querySelector<HTMLElement>("[data-ticket-status]")?.focus();

/**
 * The ticket page by keyboard: a (Assign to Me), c (the comment box), r (Resolved), u or Escape (back to
 * the list). Each mirrors its button's rule, calls the same mutation with the same toasts, and the
 * server decides again. A key pressed while the ticket loads is not lost: the last one is held and run
 * once the ticket is here, if its rule allows it then (as if pressed at that moment). Renders nothing.
 */
export function TicketShortcuts({ ticketId, ticket, isLoading, onOutcome }: TicketShortcutsProps) {
  const actor = useActor();
  const navigate = useNavigate();
  const location = useLocation();
  // The navigation's key: each opening focuses the title once, and opening another ticket does it again.
  const focusTitleFor = (location.state as OpenTicketState | null)?.focusTitle === true ? location.key : null;
  const { assign, handleAssign } = useAssignToMeAction(ticketId, onOutcome);
  const { changeStatus, handleChange } = useChangeStatusAction(ticketId, onOutcome);
  const isBusy = assign.isPending || changeStatus.isPending;
  const backToList = () => {
    void navigate(lastListPath(), { state: { fromKeyboard: true } satisfies BackToListState });
  };
  const hasTicket = ticket !== null;

  // Opened from the list or the palette: focus starts on the ticket's title, not lost on the page.
  useEffect(() => {
    if (focusTitleFor && hasTicket) document.querySelector<HTMLElement>("[data-ticket-title]")?.focus();
  }, [focusTitleFor, hasTicket]);

  const actions: Record<TicketKey, (() => void) | undefined> =
    actor && ticket
      ? {
          a:
            can.assignToSelf(actor, ticket) && !isBusy
              ? () => void handleAssign().then((assigned) => assigned && focusStatus())
              : undefined,
          r:
            statusTargets(actor, ticket).includes("Resolved") && !isBusy
              ? () => void handleChange("Resolved").then((changed) => changed && focusStatus())
              : undefined,
          c: can.comment(actor, ticket)
            ? () => document.querySelector<HTMLElement>("[data-comment-form] textarea")?.focus()
            : undefined,
        }
      : { a: undefined, r: undefined, c: undefined };

  // Pressed before the ticket was here (a slow connection, or straight after opening it from the list).
  const [held, setHeld] = useState<{ ticketId: string; key: TicketKey } | null>(null);
  const latestActions = useRef(actions);
  latestActions.current = actions;
  useEffect(() => {
    if (!held || isLoading) return;
    if (held.ticketId === ticketId) latestActions.current[held.key]?.();
    setHeld(null);
  }, [held, isLoading, ticketId]);
  const ticketKey = (key: TicketKey) => (isLoading ? () => setHeld({ ticketId, key }) : actions[key]);

  useShortcuts({
    a: ticketKey("a"),
    r: ticketKey("r"),
    c: ticketKey("c"),
    u: backToList,
    // Escape closes popups too (the notification bell's): it means "back" only from the page itself.
    Escape: (event) => (isOnPage(event.target) ? backToList() : false),
  });
  return null;
}
