import { isRouteOf } from "./page-access.ts";

export interface ServerDrawnRoute {
  /** The route, as page-access.ts writes it. */
  pattern: string;
  /** Its file under dist/client/prerendered/ (without .html): index.html with the page's chunks preloaded. */
  file: string;
  /** The page module (src/client/pages/…) whose chunks that file preloads. */
  page: string;
}

/**
 * Pages without a path of their own in prerendered-pages.ts that the server still draws for a signed-in
 * person whom the access table (page-access.ts) lets in, with the data they were drawn from, as the homes
 * are drawn into theirs (decision 052). So a ticket can be read, and its forms posted (decision 065),
 * before the app's code has arrived, or without it. Each is drawn into a file of its own that asks for the
 * page's chunks together with the entry (vite.config.ts), not one import level after another. A page that
 * cannot be drawn whole (a query that failed, more passes than the renderer allows) is drawn by the
 * browser, as before.
 */
export const serverDrawnRoutes: readonly ServerDrawnRoute[] = [
  { pattern: "/tickets", file: "tickets", page: "tickets" },
  { pattern: "/tickets/:ticketId", file: "ticket", page: "ticket" },
];

/** The server-drawn route of the page at `pathname`, if it is one. */
export const serverDrawnRouteOf = (pathname: string) =>
  serverDrawnRoutes.find((route) => isRouteOf(route.pattern, pathname));
