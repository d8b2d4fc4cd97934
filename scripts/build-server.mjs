// Compiles the server (src/server/main.ts and what it imports) into one ES module, dist/server/main.js,
// so that `npm start` runs JavaScript instead of compiling TypeScript at every start (decision 039).
// Packages stay in node_modules (not bundled); the project root is found at run time (src/server/project-root.ts).
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: ["src/server/main.ts"],
    outfile: "dist/server/main.js",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
