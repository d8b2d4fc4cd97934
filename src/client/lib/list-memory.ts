/**
 * What the keyboard queue remembers between a list and a ticket, for this tab: the list a ticket was
 * opened from (`u` goes back to it) and the row that was selected there (selected again on return).
 */
let lastList: { path: string; ticketId: string | null } | null = null;

export function rememberListSelection(path: string, ticketId: string | null) {
  lastList = { path, ticketId };
}

/** The list to go back to: the last one a row was selected in, else all tickets. */
export function lastListPath(): string {
  return lastList?.path ?? "/tickets";
}

/** The row selected last on the list at `path`, if that is the list it was selected in. */
export function rememberedSelection(path: string): string | null {
  return lastList?.path === path ? lastList.ticketId : null;
}

/** Navigation state: the ticket page was opened by keyboard or the palette, so its title takes focus. */
export interface OpenTicketState {
  focusTitle?: boolean;
}

/** Navigation state: back on the list by keyboard (u, Escape), so the remembered row takes focus. */
export interface BackToListState {
  fromKeyboard?: boolean;
}
