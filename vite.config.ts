import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { lingui } from "@lingui/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type PluginOption } from "vite";
import { type PrerenderedPage, prerenderedPages } from "./src/shared/page-rendering/prerendered-pages.ts";
import { providerVariants, variantFileOf } from "./src/shared/page-rendering/server-config.ts";
import { serverDrawnRoutes } from "./src/shared/page-rendering/server-drawn-routes.ts";
import { emptyRootPattern } from "./src/shared/page-rendering/server-rendered.ts";
import { themeScript } from "./src/shared/theme/theme-script.ts";

/** The inline theme script (src/shared/theme/theme-script.ts), first in <head>; the CSP allows it by hash. */
function themeBeforeFirstPaint(): Plugin {
  return {
    name: "helpdesk-theme-before-first-paint",
    transformIndexHtml: () => [{ tag: "script", children: themeScript, injectTo: "head-prepend" }],
  };
}

const compressibleFile = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * After the client build: prerenders the signed-out first screens into HTML (src/client/prerendering.tsx,
 * decision 043), builds the renderer the server draws the signed-in ones with
 * (src/client/server-rendering.tsx → dist/ssr/, decision 052), then writes a .br and a .gz beside every text file of the build, compressed once at the
 * highest level, so that the server sends them as they are (@fastify/static preCompressed) instead of
 * compressing the same JavaScript on every request.
 */
function prerenderAndPrecompress(): Plugin {
  let outDir = "";
  let configFile: string | undefined;
  let isServerBuild = false;
  /** Each page module's chunk and the chunks it imports, to preload them from its prerendered HTML. */
  const pageChunks = new Map<string, string[]>();
  return {
    name: "helpdesk-prerender-and-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      configFile = config.configFile;
      // The renderer's own build (below) runs this config again, for Node: nothing to draw or compress.
      isServerBuild = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (isServerBuild) return;
      const chunks = Object.values(bundle).flatMap((chunk) => (chunk.type === "chunk" ? [chunk] : []));
      const importsOf = new Map(chunks.map((chunk) => [chunk.fileName, chunk.imports]));
      const entries = new Set(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      for (const chunk of chunks) {
        for (const id of chunk.moduleIds) {
          const page = /[\\/]src[\\/]client[\\/]pages[\\/]([^\\/]+)\.tsx$/.exec(id)?.[1];
          if (!page) continue;
          // The page's chunk and every chunk it imports, however deep, but the entry (its own <script>).
          const needed = new Set<string>();
          const visit = (file: string) => {
            if (needed.has(file) || entries.has(file)) return;
            needed.add(file);
            for (const imported of importsOf.get(file) ?? []) visit(imported);
          };
          visit(chunk.fileName);
          pageChunks.set(page, [...needed]);
        }
      }
    },
    async closeBundle() {
      if (isServerBuild) return;
      await prerenderPages(outDir, configFile, pageChunks);
      await buildPageRenderer(outDir, configFile);
      await precompress(outDir);
    },
  };
}

async function prerenderPages(
  outDir: string,
  configFile: string | undefined,
  pageChunks: Map<string, string[]>,
) {
  const { createServer } = await import("vite");
  const server = await createServer({
    configFile,
    mode: "production",
    logLevel: "warn",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const { renderSignedOutPage } = (await server.ssrLoadModule(
      "/prerendering.tsx",
    )) as typeof import("./src/client/prerendering.tsx");
    const template = await readFile(path.join(outDir, "index.html"), "utf8");
    await mkdir(path.join(outDir, "prerendered"), { recursive: true });
    // The server-drawn routes have a file each too, drawn by the server only (no markup here).
    const files: Array<[string, PrerenderedPage]> = [
      ...Object.entries(prerenderedPages),
      ...serverDrawnRoutes.map(({ pattern, file, page }): [string, PrerenderedPage] => [
        pattern,
        { file, page, renderedAt: "server" },
      ]),
    ];
    for (const [pagePath, { file, page, renderedAt }] of files) {
      // A page drawn here is drawn once per set of sign-in methods (decision 061); the server sends the
      // one it offers. A page the server draws has one file, without markup.
      const variants = renderedAt === "build" ? providerVariants : [null];
      for (const providers of variants) {
        const markup = providers ? await renderSignedOutPage(pagePath, providers) : "";
        // React puts the page's <title> first; it belongs in <head>, in place of the generic one.
        const title = /^<title>.*?<\/title>/.exec(markup)?.[0];
        const body = title ? markup.slice(title.length) : markup;
        const html = template.replace("<title>Helpdesk</title>", title ?? "<title>Helpdesk</title>");
        // The page is painted from its markup (drawn here, or by the server for each person); the inline
        // head script asks for the code after that paint (src/shared/theme/theme-script.ts): the entry's
        // <script> moves to the root's data-entry, the page's chunks to its data-preload. A page the server
        // does not draw (no session, another role) is drawn by that code, a frame later.
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        // The root holds only the <noscript> saying what the page needs without its code: a page drawn here
        // replaces it; a page the server draws keeps it for when the server could not draw it.
        const root = emptyRootPattern.exec(html);
        if (!entry || !root || root[1])
          throw new Error('index.html has no module <script> or no empty <div id="root">');
        const preload = (pageChunks.get(page) ?? []).map((chunk) => `/${chunk}`).join(" ");
        const prerendered = renderedAt === "build" ? ` data-prerendered="${pagePath}"` : "";
        const content = body || (root[2] ?? "");
        await writeFile(
          path.join(outDir, "prerendered", `${providers ? variantFileOf(file, providers) : file}.html`),
          html
            .replace(entry[0], "")
            .replace(
              root[0],
              () =>
                `<div id="root"${prerendered} data-entry="${entry[1]}" data-preload="${preload}">${content}</div>`,
            ),
        );
      }
    }
  } finally {
    await server.close();
  }
}

/**
 * src/client/server-rendering.tsx built for Node into dist/ssr/ssr.js (decision 052): the server loads it to
 * draw the signed-in first screens. Packages stay in node_modules; each page is its own chunk, loaded when
 * first drawn.
 */
async function buildPageRenderer(clientOutDir: string, configFile: string | undefined) {
  const { build } = await import("vite");
  await build({
    configFile,
    mode: "production",
    logLevel: "warn",
    build: {
      ssr: true,
      outDir: path.resolve(clientOutDir, "../ssr"),
      emptyOutDir: true,
      copyPublicDir: false,
      sourcemap: true,
      // The entry keeps the name the server loads (src/server/http/server-rendered-pages.ts).
      rolldownOptions: {
        input: { ssr: path.resolve(import.meta.dirname, "src/client/server-rendering.tsx") },
        output: { codeSplitting: true },
      },
    },
  });
}

async function precompress(outDir: string) {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && compressibleFile.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      // Below about 1 KB the compressed copy saves less than its headers cost.
      if (content.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      if (br.length < content.length) await writeFile(`${file}.br`, br);
      if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}

const configPath = path.resolve(import.meta.dirname, "lingui.config.ts");

/** An import of a Lingui macro: `@lingui/core/macro`, `@lingui/react/macro` or the older `@lingui/macro`. */
const linguiMacroImport = /["']@lingui\/(?:core\/|react\/)?macro["']/;

/**
 * Lingui's macros (`<Trans>`, `t`, `msg`) become message descriptors through its Babel plugin, in our own
 * files that import one, before any other plugin sees the code. In place of @rolldown/plugin-babel, whose
 * every version declares Node 22.12 (decision 058).
 */
function linguiMacros(): Plugin {
  return {
    name: "helpdesk-lingui-macros",
    enforce: "pre",
    transform: {
      filter: {
        id: { include: /\.[jt]sx?(?:$|\?)/, exclude: /[\\/]node_modules[\\/]/ },
        code: linguiMacroImport,
      },
      async handler(code, id) {
        const { transformAsync } = await import("@babel/core");
        const file = id.replace(/\?.*$/, "");
        const syntax = { ".ts": ["typescript"], ".tsx": ["typescript", "jsx"], ".jsx": ["jsx"] } as const;
        const result = await transformAsync(code, {
          filename: file,
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: {
            sourceType: "module",
            plugins: [...(syntax[path.extname(file) as keyof typeof syntax] ?? [])],
          },
          // The English texts stay in the code (decision 038): English needs no catalogue download.
          plugins: [["@lingui/babel-plugin-lingui-macro", { stripMessageField: false }]],
        });
        return result?.code == null ? null : { code: result.code, map: result.map };
      },
    },
  };
}

/**
 * Lingui (decision 038): its macros compiled in the files that import them (above); the German .po
 * catalogue is compiled when imported (its own chunk).
 */
export const linguiPlugins = (): PluginOption[] => [linguiMacros(), lingui({ configPath })];

// The client lives in src/client; the build goes to dist/client, which the server serves.
export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [react(), ...linguiPlugins(), tailwindcss(), themeBeforeFirstPaint(), prerenderAndPrecompress()],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    sourcemap: true,
    // Chromium, Firefox and Safari preload modules themselves: no polyfill in the first download (decision 037).
    modulePreload: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // Rolldown's timing report (PLUGIN_TIMINGS) names our own prerender step and the CSS transform as the
      // slow parts, which they are by design; printed in yellow at the first `npm start`, it read as an error.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [
            { name: "app", tags: ["$initial"] },
            {
              name: "sign-in",
              test: /src[\\/]client[\\/](pages[\\/]sign-in\.tsx|features[\\/]auth[\\/](auth\.api\.ts|components[\\/](auth-card|sign-in-form|social-sign-in)\.tsx)|features[\\/]locale[\\/]language-select\.tsx)$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
