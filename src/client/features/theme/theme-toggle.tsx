import { Moon } from "lucide-react";
import { useSyncExternalStore } from "react";
import { toast } from "react-toastify/unstyled";
import { useSetTheme } from "./theme.ts";

function subscribeToHtmlClass(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}
const htmlIsDark = () => document.documentElement.classList.contains("dark");

/** Header quick switch for a signed-in person: dark on or off, saved as their choice (like /profile). */
export function ThemeToggle() {
  const isDark = useSyncExternalStore(subscribeToHtmlClass, htmlIsDark);
  const setTheme = useSetTheme();
  return (
    <button
      type="button"
      aria-label="Dark theme"
      aria-pressed={isDark}
      title={isDark ? "Switch to the light theme" : "Switch to the dark theme"}
      onClick={() =>
        setTheme.mutate(isDark ? "light" : "dark", { onError: (error) => toast.error(error.message) })
      }
      className="flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:text-indigo-600"
    >
      <Moon aria-hidden="true" className="size-5" />
    </button>
  );
}
