/**
 * Moves focus to the element `find` answers as soon as it is in the page (a lazy screen's heading, a row
 * that arrives with a refetch), watching `root` for up to `limitMs`. An element that is not focusable by
 * itself (a heading) gets tabIndex -1: focusable from script, not a Tab stop. `shouldFocus` is asked again
 * when the element appears, so focus the person moved meanwhile is left where they put it. Answers a
 * function that stops watching.
 */
export function focusWhenRendered(
  find: () => HTMLElement | null,
  { root = document.body, limitMs = 5000, shouldFocus = () => true } = {} as {
    root?: Node;
    limitMs?: number;
    shouldFocus?: () => boolean;
  },
): () => void {
  const tryFocus = () => {
    const element = find();
    if (!element) return false;
    if (shouldFocus()) {
      if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.tabIndex = -1;
      element.focus();
    }
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const timer = setTimeout(() => stop(), limitMs);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(root, { childList: true, subtree: true });
  return stop;
}

/**
 * After "Create New Ticket" (decision 036): the form closes, so focus goes back to the button that opened
 * it (found by its aria-controls), then on to the new ticket's row as soon as the list's refetch draws it;
 * a screen reader reads the new ticket's title, the toast has said it was created. A list whose filters
 * leave the ticket out keeps focus on the button.
 */
export function focusCreatedTicket(ticketId: string, formId: string): () => void {
  const main = document.getElementById("main") ?? document.body;
  const opener = main.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(formId)}"]`);
  opener?.focus();
  return focusWhenRendered(
    () => main.querySelector<HTMLElement>(`a[href="/tickets/${CSS.escape(ticketId)}"]`),
    {
      root: main,
      shouldFocus: () => document.activeElement === opener || document.activeElement === document.body,
    },
  );
}
