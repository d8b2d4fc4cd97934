import { toast } from "#client/lib/toast.ts";
import { useSetTheme } from "./theme.ts";
import { ThemeSwitchButton, useHtmlIsDark } from "./theme-switch-button.tsx";

/** Header quick switch for a signed-in person: dark on or off, saved as their choice (like /profile). */
export function ThemeToggle() {
  const isDark = useHtmlIsDark();
  const setTheme = useSetTheme();
  return (
    <ThemeSwitchButton
      isDark={isDark}
      onToggle={() =>
        setTheme.mutate(isDark ? "light" : "dark", { onError: (error) => toast.error(error.message) })
      }
    />
  );
}
