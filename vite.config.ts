import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { lingui } from "@lingui/vite-plugin";
import babel from "@rolldown/plugin-babel";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type PluginOption } from "vite";
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
 * Writes a .br and a .gz beside every text file of the build, compressed once at the highest level,
 * so that the server sends them as they are (@fastify/static preCompressed) instead of compressing
 * the same JavaScript on every request.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  let outDir = "";
  return {
    name: "helpdesk-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
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
    },
  };
}

const configPath = path.resolve(import.meta.dirname, "lingui.config.ts");

/**
 * Lingui (decision 038): its macros (`<Trans>`, `t`, `msg`) become message descriptors through Babel, only in
 * the files that import them; the German .po catalogue is compiled when imported (its own chunk).
 */
export const linguiPlugins = (): PluginOption[] => [
  babel({
    presets: [
      {
        // The English texts stay in the code (decision 038): English needs no catalogue download.
        preset: () => ({ plugins: [["@lingui/babel-plugin-lingui-macro", { stripMessageField: false }]] }),
        rolldown: { filter: { code: "@lingui/" } },
      },
    ],
  }),
  lingui({ configPath }),
];

// The client lives in src/client; the build goes to dist/client, which the server serves.
export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [react(), ...linguiPlugins(), tailwindcss(), themeBeforeFirstPaint(), precompress()],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    sourcemap: true,
    // No modulepreload helper (decision 043): its list of every chunk's dependencies rode in the first
    // download, about 2 KB gzip of chunk names; the entry's code is one chunk (below).
    modulePreload: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry loads before anything else, as one chunk: one gzip stream compresses
            // better than eight small ones, and no request waits for another (decision 043).
            { name: "app", tags: ["$initial"] },
            // /sign-in's page and its own parts, without the shared parts of the forms (field, icons), which
            // other pages load too.
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
