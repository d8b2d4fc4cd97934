import { useLingui } from "@lingui/react/macro";
import { Moon } from "lucide-react";
import { useSyncExternalStore } from "react";

function subscribeToHtmlClass(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}
const htmlIsDark = () => document.documentElement.classList.contains("dark");

/**
 * Whether the page is drawn dark now, whoever decided it (the person, this browser, the device). The
 * prerendered first screens are drawn light (decision 043): hydration starts from that, then the switch
 * shows the page's real state.
 */
export function useHtmlIsDark() {
  return useSyncExternalStore(subscribeToHtmlClass, htmlIsDark, drawnLight);
}
const drawnLight = () => false;

/** The header's dark-theme switch as drawn; what a press does depends on who is signed in. */
export function ThemeSwitchButton({ isDark, onToggle }: { isDark: boolean; onToggle: () => void }) {
  const { t } = useLingui();
  return (
    <button
      type="button"
      aria-label={t`Dark theme`}
      aria-pressed={isDark}
      title={isDark ? t`Switch to the light theme` : t`Switch to the dark theme`}
      onClick={onToggle}
      className="flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:text-indigo-600"
    >
      <Moon aria-hidden="true" className="size-5" />
    </button>
  );
}
