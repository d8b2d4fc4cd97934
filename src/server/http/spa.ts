import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isRouteOf, pageAccessOf, redirectFor } from "#shared/page-rendering/page-access.ts";
import { prerenderedPages } from "#shared/page-rendering/prerendered-pages.ts";
import {
  oidcLabelPlaceholder,
  type ServerConfig,
  serverConfigElementId,
  variantFileOf,
} from "#shared/page-rendering/server-config.ts";
import { serverDrawnRouteOf, serverDrawnRoutes } from "#shared/page-rendering/server-drawn-routes.ts";
import { jsonForScript, type RenderPage } from "#shared/page-rendering/server-rendered.ts";
import type { AuthProviders } from "#shared/users/user.schemas.ts";
import { pageForms } from "./page-form-list.ts";
import { registerPageForms } from "./page-forms.ts";
import { pageVisitorOf } from "./page-visitor.ts";
import { createPageRenderer } from "./server-rendered-pages.ts";

/**
 * Serves the built client. Unknown /api/* answers JSON 404; any other GET that wants HTML gets
 * index.html so that the client router can draw /user-home, /tickets/…, and so on — or, for the first
 * screens the build drew into HTML (/sign-in), that page's file, painted before the JavaScript runs
 * (decision 043), in the version drawn with the sign-in methods this server offers. A page with a form
 * that works without code is drawn by the server for whoever asks (decision 065). Every page carries
 * the server's configuration for the client's first render (decision 061).
 */
export async function registerSpa(
  app: FastifyInstance,
  {
    clientDir,
    pageRendering,
    authProviders = { google: false, oidc: null },
  }: {
    clientDir: string | null;
    pageRendering?: { renderPage?: RenderPage; timeoutMs?: number };
    /** The sign-in methods this server offers (as GET /api/auth/providers answers). */
    authProviders?: AuthProviders;
  },
) {
  const hasClient = clientDir !== null && existsSync(path.join(clientDir, "index.html"));
  const isBuilt = (file: string) => hasClient && existsSync(path.join(clientDir, file));
  const prerendered = new Map(
    Object.entries(prerenderedPages).flatMap(([pagePath, page]) => {
      // A page drawn at build time exists once per set of sign-in methods: the one drawn with ours.
      const file = builtFileOf(
        page.renderedAt === "build" ? variantFileOf(page.file, authProviders) : page.file,
      );
      return isBuilt(file)
        ? [[pagePath, { file, isServerRendered: page.renderedAt === "server" }] as const]
        : [];
    }),
  );
  // The ticket's pages' own files (server-drawn-routes.ts); a build without them draws them into index.html.
  const drawnRouteFiles = new Map(
    serverDrawnRoutes.flatMap(({ file }) =>
      isBuilt(builtFileOf(file)) ? [[file, builtFileOf(file)] as const] : [],
    ),
  );
  /**
   * The file a page is drawn into for whoever got this far (decision 065): the homes and a ticket's pages
   * into their own files; a page with a form that works without the app's code, unless the build drew it
   * already (/sign-in), into index.html; null for a page the server does not draw.
   */
  const drawnFileOf = (pathname: string): string | null => {
    const page = prerendered.get(pathname);
    if (page) return page.isServerRendered ? page.file : null;
    const route = serverDrawnRouteOf(pathname);
    if (route) return drawnRouteFiles.get(route.file) ?? "index.html";
    return isFormPage(pathname) ? "index.html" : null;
  };
  const builtPages = hasClient ? createBuiltPages(clientDir, authProviders) : null;
  // The signed-in first screens, drawn for each person (decision 052), when the build wrote the renderer.
  const renderer =
    hasClient && builtPages
      ? createPageRenderer(app, {
          clientDir,
          readTemplate: async (file) => (await builtPages(file)).html,
          ...pageRendering,
        })
      : null;
  if (builtPages) {
    await registerPageForms(app, {
      forms: pageForms,
      // The page the form was posted from, drawn again with its answer: in its own file when the server
      // draws it anyway, else in index.html.
      drawAnswer: async (request, reply, formAnswer) => {
        const file = drawnFileOf(request.url.split("?")[0] ?? "") ?? "index.html";
        return renderer ? renderer.send(request, reply, file, formAnswer) : false;
      },
    });
  }
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
    if (builtPages && (request.method === "GET" || request.method === "HEAD") && !path.extname(pathname)) {
      renderer?.warm();
      // The server decides where a request goes: nobody sees a white page while a script decides.
      if (pageAccessOf(pathname)) {
        const visitor = await pageVisitorOf(app, request);
        const target = visitor === undefined ? null : redirectFor(request.url, visitor);
        if (target) return reply.header("cache-control", "no-store").redirect(target, 303);
      }
      const drawnInto = drawnFileOf(pathname);
      if (
        request.method === "GET" &&
        renderer &&
        drawnInto &&
        (await renderer.send(request, reply, drawnInto))
      ) {
        return reply;
      }
      return sendBuiltPage(request, reply, await builtPages(prerendered.get(pathname)?.file ?? "index.html"));
    }
    return reply.status(404).send({ code: "not_found", message: `Not found: ${pathname}` });
  });
}

/** Where the build writes a page's own file (vite.config.ts). */
const builtFileOf = (file: string) => `prerendered/${file}.html`;

/** Whether the page at `pathname` has a form that works without the app's code (page-form-list.ts). */
const isFormPage = (pathname: string) => pageForms.some((form) => isRouteOf(form.path, pathname));

interface BuiltPage {
  html: string;
  etag: string;
}

/**
 * The built HTML files as this server sends them, read once: the organisation sign-in's label written
 * where the build drew a placeholder, and the server's configuration added for main.tsx.
 */
function createBuiltPages(clientDir: string, authProviders: AuthProviders) {
  const config = jsonForScript({ authProviders } satisfies ServerConfig);
  const configElement = `<script type="application/json" id="${serverConfigElementId}">${config}</script>`;
  const label = escapeHtml(authProviders.oidc?.label ?? "");
  const pages = new Map<string, Promise<BuiltPage>>();
  return (file: string): Promise<BuiltPage> => {
    let page = pages.get(file);
    if (!page) {
      page = readFile(path.join(clientDir, file), "utf8").then((built) => {
        const withLabel = built.replaceAll(oidcLabelPlaceholder, () => label);
        const html = withLabel.includes("</body>")
          ? withLabel.replace("</body>", () => `${configElement}</body>`)
          : `${withLabel}${configElement}`;
        return { html, etag: `W/"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"` };
      });
      // A file that could not be read is read again next time, not remembered as missing.
      page.catch(() => pages.delete(file));
      pages.set(file, page);
    }
    return page;
  };
}

/** A built page: revalidated on every visit (a new build changes it), 304 when the browser has it. */
function sendBuiltPage(request: FastifyRequest, reply: FastifyReply, page: BuiltPage) {
  reply.header("cache-control", "no-cache").header("etag", page.etag);
  if (request.headers["if-none-match"] === page.etag) return reply.status(304).send();
  return reply.header("content-type", "text/html; charset=utf-8").send(page.html);
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!,
  );
