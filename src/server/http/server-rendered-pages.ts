import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  emptyRootPattern,
  type FormAnswer,
  type RenderPage,
  type RenderPageInput,
  serverRenderedStateElementId,
  timeZoneOf,
} from "#shared/page-rendering/server-rendered.ts";
import { askOwnApi } from "./own-api.ts";

/**
 * The signed-in first screens (/user-home, /technician-home) drawn for the person asking, so that the
 * browser paints their page from the HTML instead of after the code, the session and the data have come
 * one after another (decision 052). The drawing itself is the client's own code (src/client/server-rendering.tsx,
 * built into dist/ssr/ssr.js), loaded on the first such request; it asks the API through this server's
 * own routes, as the person (their cookies), so it sees exactly what their browser would.
 */
export interface PageRenderer {
  /**
   * Sends the page at the request's address drawn into `file` (a built HTML file) and returns true; false
   * when it was not drawn. Whether it is drawn, and for whom, the caller has decided (spa.ts, decision 065).
   * With `formAnswer`, the page a form was posted from, drawn again with the form's answer, sent with the
   * API's status.
   */
  send(request: FastifyRequest, reply: FastifyReply, file: string, formAnswer?: FormAnswer): Promise<boolean>;
  /** Starts loading the renderer, if it is not loaded yet: someone is on their way to a home. */
  warm(): void;
}

/** Past this, the person gets the page as built, and the browser draws it (a slow database, say). */
export const renderTimeoutMs = 1_500;

export function createPageRenderer(
  app: FastifyInstance,
  {
    clientDir,
    rendererFile = path.join(clientDir, "..", "ssr", "ssr.js"),
    renderPage,
    timeoutMs = renderTimeoutMs,
    readTemplate = (file) => readFile(path.join(clientDir, file), "utf8"),
  }: {
    clientDir: string;
    rendererFile?: string;
    /** The renderer itself (tests load it from the sources); otherwise rendererFile, when built. */
    renderPage?: RenderPage;
    timeoutMs?: number;
    /** A built file as the server sends it (with its configuration, spa.ts); the file itself otherwise. */
    readTemplate?: (file: string) => Promise<string>;
  },
): PageRenderer | null {
  if (!renderPage && !existsSync(rendererFile)) return null;
  // Loaded once the first page of the app is asked for (people sign in on one before they reach a home),
  // not at start: React and the pages take ~10 MB that an instance serving only the API never needs.
  let renderer: Promise<RenderPage> | undefined;
  const loadRenderer = () => {
    renderer ??= renderPage
      ? Promise.resolve(renderPage)
      : import(pathToFileURL(rendererFile).href).then(
          (module: { renderPage: RenderPage }) => module.renderPage,
        );
    return renderer;
  };
  const templates = new Map<string, Promise<string>>();
  const templateOf = (file: string) => {
    let template = templates.get(file);
    if (!template) {
      template = readTemplate(file);
      templates.set(file, template);
    }
    return template;
  };

  return {
    warm() {
      loadRenderer().catch((error: unknown) =>
        app.log.error({ err: error }, `could not load ${rendererFile}`),
      );
    },
    async send(request, reply, file, formAnswer) {
      // Dates are written in the browser's time zone, from its cookie; a browser that has not run the
      // app's code yet (or has none) has not said it: UTC, and the page says so to the code (main.tsx).
      const timeZone = timeZoneOf(request.headers.cookie ?? "") ?? "UTC";
      const input: RenderPageInput = {
        url: request.url,
        ...(formAnswer ? { formAnswer } : {}),
        fetch: (apiPath, init) => askApi(app, request, apiPath, init),
        languages: acceptedLanguages(request.headers["accept-language"]),
        timeZone,
      };
      let timer: NodeJS.Timeout | undefined;
      try {
        const page = await Promise.race([
          Promise.all([loadRenderer(), templateOf(file)]).then(async ([draw, template]) => {
            const rendered = await draw(input);
            return rendered && { ...rendered, template };
          }),
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), timeoutMs);
          }),
        ]);
        if (!page) return false;
        if (!("markup" in page)) {
          // Not drawn, but not found either (a ticket this person may not see): the browser draws the
          // page, answered with the API's status. A form's answer keeps its own.
          if (!formAnswer) void reply.status(page.status);
          return false;
        }
        const html = intoTemplate(page.template, page);
        if (!html) return false;
        await reply
          .status(formAnswer?.status ?? 200)
          .header("content-type", "text/html; charset=utf-8")
          // The person's own tickets: never kept by a cache, never sent to another cookie.
          .header("cache-control", "no-store")
          .header("vary", "cookie")
          .send(html);
        return true;
      } catch (error) {
        request.log.warn({ err: error }, `could not draw ${request.url} on the server; the browser draws it`);
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The renderer's GETs, answered by this app's own routes for the person who asked for the page. */
async function askApi(
  app: FastifyInstance,
  request: FastifyRequest,
  apiPath: string,
  init: RequestInit,
): Promise<Response> {
  // Drawing a page reads; it never changes anything.
  if ((init.method ?? "GET") !== "GET" || !apiPath.startsWith("/api/")) {
    return Response.json({ code: "forbidden", message: "Only reads while drawing a page" }, { status: 403 });
  }
  const answer = await askOwnApi(app, request, { method: "GET", url: apiPath });
  return new Response(answer.body, {
    status: answer.statusCode,
    headers: { "content-type": String(answer.headers["content-type"] ?? "application/json") },
  });
}

/** Accept-Language's languages, most wanted first ("de-CH, en;q=0.8" → ["de-CH", "en"]). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((language) => language.tag && language.tag !== "*" && language.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((language) => language.tag);
}

/**
 * The built page with the person's markup in its root (in place of the <noscript> saying what the page
 * needs without code: this one needs none), their data beside it, its title and language.
 */
export function intoTemplate(
  template: string,
  page: { title: string | null; markup: string; state: string; locale: string },
): string | null {
  const root = emptyRootPattern.exec(template);
  if (!root) return null;
  const renderedRoot =
    `<div id="root" data-drawn${root[1]}>${page.markup}</div>` +
    `<script type="application/json" id="${serverRenderedStateElementId}">${page.state}</script>`;
  return (
    template
      .replace(root[0], () => renderedRoot)
      .replace(/<title>[^<]*<\/title>/, () => page.title ?? "<title>Helpdesk</title>")
      .replace(/<html lang="[^"]*"/, () => `<html lang="${page.locale}"`)
      // Who is signed in travels with the page: no need to ask for it again.
      .replace(/\s*<link rel="preload" href="\/api\/me"[^>]*>/, "")
  );
}
