/**
 * The first screens that have an HTML file of their own: the path a browser asks for → the file under
 * dist/client/prerendered/ that the server sends instead of index.html, and the page module
 * (src/client/pages/…) whose chunks that file preloads, so they download with the entry instead of after
 * it. One file per path, as the header marks the current page.
 * - `renderedAt: "build"`: drawn into the file at build time for a signed-out visitor, in English, light
 *   (src/client/prerendering.tsx, decision 043); main.tsx hydrates it.
 * - `renderedAt: "server"`: what it shows is the person's own, so the server draws it into the file for each
 *   request from a signed-in person the access table lets in (page-access.ts; src/client/server-rendering.tsx,
 *   decision 052), with the data it drew from; main.tsx hydrates it. Anyone else gets the file as built, and
 *   the browser draws the page.
 */
export interface PrerenderedPage {
  file: string;
  page: string;
  renderedAt: "build" | "server";
}

export const prerenderedPages: Readonly<Record<string, PrerenderedPage>> = {
  "/": { file: "root", page: "sign-in", renderedAt: "build" },
  "/sign-in": { file: "sign-in", page: "sign-in", renderedAt: "build" },
  "/user-home": { file: "user-home", page: "user-home", renderedAt: "server" },
  "/technician-home": { file: "technician-home", page: "technician-home", renderedAt: "server" },
};
