import { useEffect } from "react";
import { appReadyKey, earlyChangeKey, earlyClickKey, earlySubmitKey } from "#shared/theme/theme-script.ts";

type HoldingDocument = Document & {
  [earlyClickKey]?: HTMLButtonElement;
  [earlyChangeKey]?: [HTMLSelectElement, string];
  [earlySubmitKey]?: [HTMLFormElement, HTMLElement | null];
  [appReadyKey]?: boolean;
};

/**
 * The app has the page: the inline head script (src/shared/theme/theme-script.ts) stops holding presses,
 * and what it held is done again, now by the app. A choice made in a select comes first (hydration kept
 * the drawn value, so the held one is set again and announced as a change, which React's onChange handles
 * as the person's own), then the button pressed ("Create New Ticket" tapped while the home was still only
 * HTML opens the form now instead of doing nothing).
 */
export function takeOverPage(holder: HoldingDocument = document): void {
  holder[appReadyKey] = true;
  const held = holder[earlyChangeKey];
  holder[earlyChangeKey] = undefined;
  if (held) {
    const [select, value] = held;
    if (select.isConnected) {
      select.value = value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  const button = holder[earlyClickKey];
  holder[earlyClickKey] = undefined;
  if (button) {
    notPending(button);
    if (button.isConnected && !button.disabled) button.click();
  }
  // A form only the app can send ("Assign to…" on a drawn ticket), sent before it could: sent now, by it.
  const submitted = holder[earlySubmitKey];
  holder[earlySubmitKey] = undefined;
  if (submitted) {
    const [form, submitter] = submitted;
    if (submitter) notPending(submitter);
    const by = submitter instanceof HTMLButtonElement && submitter.form === form ? submitter : undefined;
    if (form.isConnected) form.requestSubmit(by);
  }
}

const notPending = (element: HTMLElement) => {
  element.removeAttribute("data-pending");
  element.removeAttribute("aria-busy");
};

/**
 * Rendered with the page, inside its Suspense boundary (and with the page's error): its effect runs once
 * the page is committed, hydrated or drawn, so everything on it is the app's by then.
 */
export function EarlyClickReplay() {
  useEffect(() => takeOverPage(), []);
  return null;
}
