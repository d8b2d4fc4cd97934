import { useEffect } from "react";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { statusTargets } from "#shared/tickets/ticket-status.ts";
import { type BackToListState, lastListPath, type OpenTicketState } from "../../../lib/list-memory.ts";
import { useLocation, useNavigate } from "../../../lib/router.tsx";
import { useActor } from "../../../lib/use-actor.ts";
import { useShortcuts } from "../../../lib/use-shortcuts.ts";
import { useAssignToMeAction } from "./assign-to-me-button.tsx";
import { useChangeStatusAction } from "./change-status-buttons.tsx";

interface TicketShortcutsProps {
  ticket: Ticket;
  /** The page's refusal message, as the buttons report it. */
  onOutcome: (refusal: string | null) => void;
}

const isOnPage = (target: EventTarget | null) =>
  target === document.body || (target instanceof Element && target.closest("main") !== null);

const focusStatus = () => document.querySelector<HTMLElement>("[data-ticket-status]")?.focus();

/**
 * The ticket page by keyboard: a (Assign to Me), c (the comment box), r (Resolved), u or Escape (back to
 * the list). Each mirrors its button's rule, calls the same mutation with the same toasts, and the
 * server decides again. Renders nothing.
 */
export function TicketShortcuts({ ticket, onOutcome }: TicketShortcutsProps) {
  const actor = useActor();
  const navigate = useNavigate();
  const location = useLocation();
  // The navigation's key: each opening focuses the title once, and opening another ticket does it again.
  const focusTitleFor = (location.state as OpenTicketState | null)?.focusTitle === true ? location.key : null;
  const { assign, handleAssign } = useAssignToMeAction(ticket.ticketId, onOutcome);
  const { changeStatus, handleChange } = useChangeStatusAction(ticket.ticketId, onOutcome);
  const isBusy = assign.isPending || changeStatus.isPending;
  const backToList = () => {
    void navigate(lastListPath(), { state: { fromKeyboard: true } satisfies BackToListState });
  };

  // Opened from the list or the palette: focus starts on the ticket's title, not lost on the page.
  useEffect(() => {
    if (focusTitleFor) document.querySelector<HTMLElement>("[data-ticket-title]")?.focus();
  }, [focusTitleFor]);

  useShortcuts({
    a:
      actor && can.assignToSelf(actor, ticket) && !isBusy
        ? () => void handleAssign().then((assigned) => assigned && focusStatus())
        : undefined,
    r:
      actor && statusTargets(actor, ticket).includes("Resolved") && !isBusy
        ? () => void handleChange("Resolved").then((changed) => changed && focusStatus())
        : undefined,
    c:
      actor && can.comment(actor, ticket)
        ? () => document.querySelector<HTMLElement>("[data-comment-form] textarea")?.focus()
        : undefined,
    u: backToList,
    // Escape closes popups too (the notification bell's): it means "back" only from the page itself.
    Escape: (event) => (isOnPage(event.target) ? backToList() : false),
  });
  return null;
}
