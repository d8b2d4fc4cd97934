import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { prerenderedPages } from "#shared/first-screens/prerendered.ts";
import type { DrawPage } from "#shared/first-screens/server-drawn.ts";
import { createPageDrawer } from "./server-drawn-pages.ts";

/**
 * Serves the built client. Unknown /api/* answers JSON 404; any other GET that wants HTML gets
 * index.html so that the client router can draw /user-home, /tickets/…, and so on — or, for the first
 * screens the build drew into HTML (/sign-in), that page's file, painted before the JavaScript runs
 * (decision 043).
 */
export async function registerSpa(
  app: FastifyInstance,
  {
    clientDir,
    pageDrawing,
  }: { clientDir: string | null; pageDrawing?: { drawPage?: DrawPage; timeoutMs?: number } },
) {
  const hasClient = clientDir !== null && existsSync(path.join(clientDir, "index.html"));
  const prerendered = new Map(
    Object.entries(prerenderedPages).flatMap(([pagePath, page]) => {
      const relative = `prerendered/${page.file}.html`;
      return hasClient && existsSync(path.join(clientDir, relative))
        ? [[pagePath, { file: relative, isDrawnByServer: page.drawn === "server" }] as const]
        : [];
    }),
  );
  // The signed-in first screens, drawn for each person (decision 052), when the build wrote the renderer.
  const drawer = hasClient ? createPageDrawer(app, { clientDir, ...pageDrawing }) : null;
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); send those when the browser accepts them.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; index.html must always be revalidated.
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "no-cache",
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "";
    if (pathname.startsWith("/api/") || pathname === "/api") {
      return reply
        .status(404)
        .send({ code: "not_found", message: `No API route ${request.method} ${pathname}` });
    }
    if (hasClient && (request.method === "GET" || request.method === "HEAD") && !path.extname(pathname)) {
      drawer?.warm();
      const page = prerendered.get(pathname);
      if (
        page?.isDrawnByServer &&
        request.method === "GET" &&
        (await drawer?.send(request, reply, page.file))
      ) {
        return reply;
      }
      return reply.header("cache-control", "no-cache").sendFile(page?.file ?? "index.html");
    }
    return reply.status(404).send({ code: "not_found", message: `Not found: ${pathname}` });
  });
}
