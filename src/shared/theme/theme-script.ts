/** Where the browser keeps a copy of the person's theme choice, read before the first paint. */
export const themeStorageKey = "helpdesk-theme";

/** Where the browser keeps its last language (src/client/lib/i18n.ts's localeStorageKey). */
const localeStorageKey = "helpdesk-locale";

/**
 * After the first paint: the page's chunks (`data-preload`) and the entry (`data-entry`), as the build's
 * <script type="module"> would have. "After" is when the browser has recorded the first contentful paint
 * (a `paint` PerformanceObserver; at the latest after 1 s). Asking one frame after DOMContentLoaded, as
 * before, raced the paint: on a fast connection the code could arrive and run before the frame was shown,
 * and the page then measured as if it waited for its code (decision 043, "After decision 052"). A hidden
 * tab, a browser without paint timing and an English first screen hidden for another language (nothing
 * to paint before the code) keep the old rule: the next frame, or 200 ms in a tab that draws no frames.
 */
const loadAfterFirstPaint = `document.addEventListener("DOMContentLoaded",function(){var r=document.getElementById("root"),e=r&&r.getAttribute("data-entry"),done=false;if(!e)return;function load(){if(done)return;done=true;var h=document.head;(r.getAttribute("data-preload")||"").split(" ").forEach(function(f){if(!f)return;var k=document.createElement("link");k.rel="modulepreload";k.crossOrigin="";k.href=f;h.appendChild(k)});var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=e;h.appendChild(s)}var w=false;try{var P=window.PerformanceObserver,y=P&&P.supportedEntryTypes;if(document.visibilityState==="visible"&&y&&y.indexOf("paint")>=0&&!(r.hasAttribute("data-prerendered")&&document.documentElement.classList.contains("other-language"))){new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(load,0)}}).observe({type:"paint",buffered:true});w=true}}catch(x){}if(w)setTimeout(load,1000);else{requestAnimationFrame(function(){setTimeout(load,0)});setTimeout(load,200)}});`;

/** Where (on `document`) the inline script keeps the button pressed before the app took the page over (src/client/lib/early-click.ts). */
export const earlyClickKey = "helpdeskEarlyClick";

/**
 * Where (on `document`) the inline script keeps a choice made before the app took the page over: [select, value],
 * or [radio or checkbox, checked].
 */
export const earlyChangeKey = "helpdeskEarlyChange";

/** Where (on `document`) the inline script keeps a form of the app's own sent before the app took the page over: [form, submitter]. */
export const earlySubmitKey = "helpdeskEarlySubmit";

/** Set to true on `document` by the app once it has taken the page over (src/client/lib/early-click.ts). */
export const appReadyKey = "helpdeskReady";

/**
 * A page drawn before its code runs (the build's /sign-in, the server's pages: decisions 043, 052, 065)
 * shows buttons that do nothing until the app has taken the page over. A press on one meanwhile is held
 * here (the last one; the event goes no further, so nothing half-handles it), the button shows it was
 * pressed (`data-pending`: a spinner, styles.css), and the app presses it again once it has the page
 * (document.helpdeskReady, set by the app; nothing of React's internals is read). Submit buttons are left
 * to the browser when their form says how it is sent (`method`): those post to the server without code
 * (decision 065), and the button pressed shows it was unless the app took the submit over. A form of the
 * app's own (no `method`: only its code can send it) is held like a press and sent again by the app. A choice made in a select,
 * a radio or a checkbox meanwhile (the sign-in page's language, a star of Rate & Feedback) is kept the same way, with its value
 * or whether it is checked, and made again once the app is ready;
 * kept from its `input` event, which comes first: when that event is what makes React hydrate the select
 * (the code had arrived), hydration sets the select back to its drawn value before the `change` follows.
 */
const holdEarlyClicks = `(function(){var d=document;function ready(){return d.${appReadyKey}===true}function busy(b){if(b&&b.setAttribute){b.setAttribute("data-pending","");b.setAttribute("aria-busy","true")}}d.addEventListener("click",function(e){if(ready())return;var t=e.target,b=t&&t.closest&&t.closest("button");if(!b||b.type==="submit"||!b.closest("#root"))return;var h=d.${earlyClickKey};if(h&&h!==b){h.removeAttribute("data-pending");h.removeAttribute("aria-busy")}d.${earlyClickKey}=b;busy(b);e.stopPropagation();e.preventDefault()},true);["input","change"].forEach(function(n){d.addEventListener(n,function(e){var s=e.target,c=s&&(s.type==="radio"||s.type==="checkbox");if(ready()||!s||!(s.tagName==="SELECT"||(s.tagName==="INPUT"&&c))||!s.closest("#root"))return;d.${earlyChangeKey}=[s,c?s.checked:s.value]},true)});d.addEventListener("submit",function(e){var f=e.target;if(ready()||!f||!f.closest||!f.closest("#root")||f.hasAttribute("method"))return;var h=d.${earlySubmitKey};if(h&&h[1]&&h[1]!==e.submitter){h[1].removeAttribute("data-pending");h[1].removeAttribute("aria-busy")}d.${earlySubmitKey}=[f,e.submitter];busy(e.submitter);e.stopPropagation();e.preventDefault()},true);d.addEventListener("submit",function(e){if(!e.defaultPrevented)busy(e.submitter)});addEventListener("pageshow",function(e){if(e.persisted)[].forEach.call(d.querySelectorAll("[data-pending]"),function(b){b.removeAttribute("data-pending");b.removeAttribute("aria-busy")})})})();`;

/**
 * Runs inline in <head> before any CSS is applied, so a dark page never flashes light: the stored choice,
 * else the device's setting. The app then applies the person's own choice from /api/me (decision 035).
 * It also marks <html> with `other-language` when the page will be drawn in another language than English
 * (the stored choice, else the browser's first of en/de, as src/client/lib/i18n.ts resolves it): the
 * prerendered English first screens then stay hidden until the app draws them in that language (decision
 * 043). On a prerendered first screen (`<div id="root" data-entry>`), it asks for the app's code only
 * once that screen is painted: the page needs no script to be seen, and the code no longer competes with
 * the stylesheet for the first paint (decision 043). A button pressed before the code has taken the page
 * over is pressed again once it has (holdEarlyClicks, above). Inline, so the CSP allows exactly this text by its
 * hash (src/server/http/security-headers.ts), never 'unsafe-inline'.
 */
export const themeScript = `try{var t=localStorage.getItem("${themeStorageKey}");var d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}try{var l=localStorage.getItem("${localeStorageKey}");if(l!=="en"&&l!=="de"){l="en";var n=navigator.languages&&navigator.languages.length?navigator.languages:[navigator.language];for(var i=0;i<n.length;i++){var p=String(n[i]).toLowerCase().split("-")[0];if(p==="en"||p==="de"){l=p;break}}}if(l!=="en")document.documentElement.classList.add("other-language")}catch(e){}${holdEarlyClicks}${loadAfterFirstPaint}`;
