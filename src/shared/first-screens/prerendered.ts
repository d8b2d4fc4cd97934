/**
 * The first screens that have an HTML file of their own (decision 043): the path a browser asks for → the
 * file under dist/client/prerendered/ that the server sends instead of index.html, and the page module
 * (src/client/pages/…) whose chunks that file preloads, so they download with the entry instead of after
 * it. `drawn` pages are drawn into the file for a signed-out visitor, in English, light
 * (src/client/prerender.tsx), and main.tsx hydrates them; one file per path, as the header marks the
 * current page. The homes are not drawn: what they show is the person's own.
 */
export const prerenderedPages: Readonly<Record<string, { file: string; page: string; drawn: boolean }>> = {
  "/": { file: "root", page: "sign-in", drawn: true },
  "/sign-in": { file: "sign-in", page: "sign-in", drawn: true },
  "/user-home": { file: "user-home", page: "user-home", drawn: false },
  "/technician-home": { file: "technician-home", page: "technician-home", drawn: false },
};
