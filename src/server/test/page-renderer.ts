import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { projectRoot } from "#server/project-root.ts";
import type { RenderPage } from "#shared/page-rendering/server-rendered.ts";

/**
 * The real page renderer (src/client/server-rendering.tsx), loaded from the sources through Vite as the
 * build would bundle it, and a client folder shaped like the build's (vite.config.ts): index.html and the
 * homes' files, whose code is asked for by the root's data-entry.
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
  const builtHome =
    '<!doctype html><html lang="en"><head><title>Helpdesk</title>' +
    '<link rel="preload" href="/api/me" as="fetch" crossorigin="anonymous" /></head>' +
    '<body><div id="root" data-entry="/assets/index.js" data-preload="/assets/home.js"></div></body></html>';
  for (const file of ["user-home", "technician-home"]) {
    writeFileSync(path.join(clientDir, "prerendered", `${file}.html`), builtHome);
  }
  return { renderPage, clientDir, close: () => vite.close() };
}
