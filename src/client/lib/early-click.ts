import { useEffect } from "react";
import { earlyChangeKey, earlyClickKey, reactPropsKeyPrefix } from "#shared/theme/theme-script.ts";

type HoldingDocument = Document & {
  [earlyClickKey]?: HTMLButtonElement;
  [earlyChangeKey]?: [HTMLSelectElement, string];
};

/** Whether React has taken this node over: hydration gives each of its elements React's props. */
const isReacts = (node: Element) => Object.keys(node).some((key) => key.startsWith(reactPropsKeyPrefix));

/** Runs `then` once React has `node`, checking every frame; gives up after `waitMs` or when it is gone. */
function onceReacts(node: HTMLButtonElement | HTMLSelectElement, waitMs: number, then: () => void) {
  const until = performance.now() + waitMs;
  const attempt = () => {
    if (!node.isConnected || node.disabled) return;
    if (isReacts(node)) {
      then();
      return;
    }
    if (performance.now() < until) requestAnimationFrame(attempt);
  };
  attempt();
}

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
  onceReacts(button, waitMs, () => button.click());
}

/**
 * Makes again the choice someone made in a select before the code had taken it over (the sign-in page's
 * language chosen while the page was still only HTML): hydration keeps the drawn value, so the held one is
 * set again and announced as a change, which React's onChange then handles as the person's own.
 */
export function replayEarlyChange(holder: HoldingDocument = document, waitMs = 5000): void {
  const held = holder[earlyChangeKey];
  if (!held) return;
  holder[earlyChangeKey] = undefined;
  const [select, value] = held;
  onceReacts(select, waitMs, () => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

/** Rendered with the page, inside its Suspense boundary: runs once the page itself is React's. */
export function EarlyClickReplay() {
  useEffect(() => {
    replayEarlyChange();
    replayEarlyClick();
  }, []);
  return null;
}
