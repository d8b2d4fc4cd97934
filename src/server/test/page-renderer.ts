import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { createServer, type ViteDevServer } from "vite";
import type { AppDeps } from "#server/app-deps.ts";
import { projectRoot } from "#server/project-root.ts";
import { type RenderPage, serverRenderedStateElementId } from "#shared/page-rendering/server-rendered.ts";
import { createTestApp, request } from "./test-app.ts";

/**
 * The real page renderer (src/client/server-rendering.tsx), loaded from the sources through Vite as the
 * build would bundle it, and a client folder shaped like the build's (vite.config.ts): index.html, and the
 * homes' and the ticket pages' files, whose code is asked for by the root's data-entry with the page's
 * chunks in its data-preload.
 */
export async function loadPageRenderer(): Promise<{
  renderPage: RenderPage;
  clientDir: string;
  close: () => Promise<void>;
}> {
  const vite: ViteDevServer = await createServer({
    configFile: path.join(projectRoot, "vite.config.ts"),
    mode: "production",
    logLevel: "warn",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const { renderPage } = (await vite.ssrLoadModule("/server-rendering.tsx")) as { renderPage: RenderPage };
  const clientDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-drawn-"));
  mkdirSync(path.join(clientDir, "prerendered"));
  writeFileSync(
    path.join(clientDir, "index.html"),
    '<!doctype html><html lang="en"><head><title>Helpdesk</title></head><body><div id="root"></div></body></html>',
  );
  const builtPage = (chunk: string) =>
    '<!doctype html><html lang="en"><head><title>Helpdesk</title>' +
    '<link rel="preload" href="/api/me" as="fetch" crossorigin="anonymous" /></head>' +
    `<body><div id="root" data-entry="/assets/index.js" data-preload="/assets/${chunk}.js"></div></body></html>`;
  for (const [file, chunk] of [
    ["user-home", "home"],
    ["technician-home", "home"],
    ["tickets", "tickets"],
    ["ticket", "ticket"],
  ] as const) {
    writeFileSync(path.join(clientDir, "prerendered", `${file}.html`), builtPage(chunk));
  }
  return { renderPage, clientDir, close: () => vite.close() };
}

/**
 * The real app on a test database of its own, drawing pages with the real renderer (above): `t` as
 * createTestApp gives it, `renderer` for its client folder and its renderPage.
 */
export async function createDrawingTestApp(options: Partial<AppDeps> = {}) {
  const renderer = await loadPageRenderer();
  const t = await createTestApp({
    clientDir: renderer.clientDir,
    // The first pages compile the client's modules on demand: no time limit here.
    pageRendering: { renderPage: renderer.renderPage, timeoutMs: 120_000 },
    ...options,
  });
  return {
    t,
    renderer,
    close: async () => {
      await t.close();
      await renderer.close();
    },
  };
}

/** A page as a browser asks for it, as `cookie` or signed out. */
export const openPageAs = (
  app: FastifyInstance,
  url: string,
  cookie: string | null,
  headers: Record<string, string> = {},
) => request(app, { method: "GET", url, cookie, headers: { accept: "text/html", ...headers } });

/** A form as a browser posts it without the app's code (decision 065): urlencoded, from this site's own page. */
export const postFormAs = (
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  { cookie = null, headers = {} }: { cookie?: string | null; headers?: Record<string, string> } = {},
) =>
  request(app, {
    method: "POST",
    url,
    cookie,
    payload: new URLSearchParams(fields).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "text/html",
      "sec-fetch-site": "same-origin",
      ...headers,
    },
  });

/** The state a drawn page carries for the browser to start from. */
export function drawnStateOf<State>(html: string): State {
  const json = new RegExp(
    `<script type="application/json" id="${serverRenderedStateElementId}">(.*?)</script>`,
    "s",
  ).exec(html)?.[1];
  if (!json) throw new Error("no drawn state in the page");
  return JSON.parse(json) as State;
}

/** The opening tag of the form named `name`, as drawn. */
export const formTagOf = (html: string, name: string) =>
  new RegExp(`<form[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
