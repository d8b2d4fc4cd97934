import { useEffect } from "react";
import { earlyClickKey, reactPropsKeyPrefix } from "#shared/theme/theme-script.ts";

type HoldingDocument = Document & { [earlyClickKey]?: HTMLButtonElement };

/** Whether React has taken this node over: hydration gives each of its elements React's props. */
const isReacts = (node: Element) => Object.keys(node).some((key) => key.startsWith(reactPropsKeyPrefix));

/**
 * Presses again the button someone pressed on a drawn page before the code had taken it over (held by the
 * inline head script, src/shared/theme/theme-script.ts), once React has: "Create New Ticket" tapped while
 * the home was still only HTML opens the form a moment later instead of doing nothing. Given up after
 * `waitMs` (the button never became React's: the page was drawn afresh, or it is gone).
 */
export function replayEarlyClick(holder: HoldingDocument = document, waitMs = 5000): void {
  const button = holder[earlyClickKey];
  if (!button) return;
  holder[earlyClickKey] = undefined;
  const until = performance.now() + waitMs;
  const attempt = () => {
    if (!button.isConnected || button.disabled) return;
    if (isReacts(button)) {
      button.click();
      return;
    }
    if (performance.now() < until) requestAnimationFrame(attempt);
  };
  attempt();
}

/** Rendered with the page, inside its Suspense boundary: runs once the page itself is React's. */
export function EarlyClickReplay() {
  useEffect(() => replayEarlyClick(), []);
  return null;
}
