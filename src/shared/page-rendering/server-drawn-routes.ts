import { isRouteOf } from "./page-access.ts";

/**
 * Pages without a file of their own that the server still draws for a signed-in person whom the access
 * table (page-access.ts) lets in: into index.html, with the data they were drawn from, as the homes are
 * drawn into theirs (prerendered-pages.ts, decision 052). So a ticket can be read, and its forms posted
 * (decision 065), before the app's code has arrived, or without it. A page that cannot be drawn whole (a
 * query that failed, more passes than the renderer allows) is drawn by the browser, as before.
 */
export const serverDrawnRoutes: readonly string[] = ["/tickets", "/tickets/:ticketId"];

/** Whether the server draws the page at `pathname` into index.html for a signed-in person. */
export const isServerDrawnRoute = (pathname: string) =>
  serverDrawnRoutes.some((pattern) => isRouteOf(pattern, pathname));
