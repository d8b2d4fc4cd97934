/** Where the browser keeps a copy of the person's theme choice, read before the first paint. */
export const themeStorageKey = "helpdesk-theme";

/**
 * Runs inline in <head> before any CSS is applied, so a dark page never flashes light: the stored choice,
 * else the device's setting. The app then applies the person's own choice from /api/me (decision 035).
 * Inline, so the CSP allows exactly this text by its hash (src/server/http/security-headers.ts), never
 * 'unsafe-inline'.
 */
export const themeScript = `try{var t=localStorage.getItem("${themeStorageKey}");var d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}`;
