/**
 * The time zone dates are shown in (lib/format.ts): the browser's own (undefined), or, while the server
 * draws a page for a browser (src/client/server-rendering.tsx, decision 052), that browser's, so that both
 * write every date alike; in the browser, the one a drawn page was written in (main.tsx). A module of its
 * own, so that the entry can set it without bringing the formatting along.
 */
let timeZone: string | undefined;

export function setTimeZone(zone: string | undefined) {
  timeZone = zone;
}

export const shownTimeZone = () => timeZone;
