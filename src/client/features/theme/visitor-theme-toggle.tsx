import { applyTheme } from "./theme.ts";
import { ThemeSwitchButton, useHtmlIsDark } from "./theme-switch-button.tsx";

/**
 * Header switch for someone signed out (the sign-in pages): dark on or off in this browser only, kept in
 * its storage for the next visit. Signing in applies the person's own choice instead (decision 035).
 */
export function VisitorThemeToggle() {
  const isDark = useHtmlIsDark();
  return <ThemeSwitchButton isDark={isDark} onToggle={() => applyTheme(isDark ? "light" : "dark")} />;
}
