import { useEffect } from "react";
import { appReadyKey, earlyChangeKey, earlyClickKey, earlySubmitKey } from "#shared/theme/theme-script.ts";

type HoldingDocument = Document & {
  [earlyClickKey]?: HTMLButtonElement;
  [earlyChangeKey]?: [HTMLSelectElement, string] | [HTMLInputElement, boolean];
  [earlySubmitKey]?: [HTMLFormElement, HTMLElement | null];
  [appReadyKey]?: boolean;
};

/**
 * The app has the page: the inline head script (src/shared/theme/theme-script.ts) stops holding presses,
 * and what it held is done again, now by the app. A choice made in a select comes first (hydration kept
 * the drawn value, so the held one is set again and announced as a change, which React's onChange handles
 * as the person's own; a radio or checkbox is clicked again if hydration undid it), then the button pressed ("Create New Ticket" tapped while the home was still only
 * HTML opens the form now instead of doing nothing).
 */
export function takeOverPage(holder: HoldingDocument = document): void {
  holder[appReadyKey] = true;
  const held = holder[earlyChangeKey];
  holder[earlyChangeKey] = undefined;
  if (held) makeAgain(held, holder);
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

const makeAgain = (
  [element, value]: [HTMLSelectElement, string] | [HTMLInputElement, boolean],
  holder: Document,
) => {
  const target = element.isConnected ? element : replacementOf(element, holder);
  if (!target) return;
  if (target instanceof HTMLInputElement) {
    // A click, as the person's was: React's radios and checkboxes hear their changes from it. Hydration
    // may have kept the checked box the person left while React's state still says otherwise (or set it
    // back, when an event made it hydrate): so the box is first set to the other state, then clicked.
    if (target.disabled) return;
    target.checked = !value;
    target.click();
    return;
  }
  target.value = String(value);
  target.dispatchEvent(new Event("change", { bubbles: true }));
};

/**
 * The control that took a held one's place: when the drawn page could not be hydrated as it was (its text
 * differed from the browser's first render, a time that passed a minute meanwhile), React draws it again
 * with new elements, and the choice goes to the new select of the same name (a radio: of the same name and value).
 */
function replacementOf<Control extends HTMLSelectElement | HTMLInputElement>(
  control: Control,
  holder: Document,
): Control | null {
  if (!control.name) return null;
  const sameValue = control instanceof HTMLInputElement ? `[value="${CSS.escape(control.value)}"]` : "";
  const named = holder.querySelectorAll<Control>(
    `#root ${control.tagName.toLowerCase()}[name="${CSS.escape(control.name)}"]${sameValue}`,
  );
  return named.length === 1 ? (named[0] ?? null) : null;
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
