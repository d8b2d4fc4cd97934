/** Where the browser keeps a copy of the person's theme choice, read before the first paint. */
export const themeStorageKey = "helpdesk-theme";

/** Where the browser keeps its last language (src/client/lib/i18n.ts's localeStorageKey). */
const localeStorageKey = "helpdesk-locale";

/**
 * Runs inline in <head> before any CSS is applied, so a dark page never flashes light: the stored choice,
 * else the device's setting. The app then applies the person's own choice from /api/me (decision 035).
 * It also marks <html> with `other-language` when the page will be drawn in another language than English
 * (the stored choice, else the browser's first of en/de, as src/client/lib/i18n.ts resolves it): the
 * prerendered English first screens then stay hidden until the app draws them in that language (decision
 * 043). Inline, so the CSP allows exactly this text by its hash (src/server/http/security-headers.ts),
 * never 'unsafe-inline'.
 */
export const themeScript = `try{var t=localStorage.getItem("${themeStorageKey}");var d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}try{var l=localStorage.getItem("${localeStorageKey}");if(l!=="en"&&l!=="de"){l="en";var n=navigator.languages&&navigator.languages.length?navigator.languages:[navigator.language];for(var i=0;i<n.length;i++){var p=String(n[i]).toLowerCase().split("-")[0];if(p==="en"||p==="de"){l=p;break}}}if(l!=="en")document.documentElement.classList.add("other-language")}catch(e){}`;
