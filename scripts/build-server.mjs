// Compiles the server (src/server/main.ts and what it imports) into one ES module, dist/server/main.js,
// so that `npm start` runs JavaScript instead of compiling TypeScript at every start (decision 039), with
// the packages it imports inside (decision 048): Node no longer resolves, reads and compiles some 1,600
// files one by one at every start, which was a fifth of the start's CPU. The project root is found at run
// time (src/server/project-root.ts).
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Packages left in node_modules, each for a reason: they read files of their own package at run time
 * (PGlite its WebAssembly and data files, the Swagger UI its static files, @fastify/swagger its
 * package.json), load a native addon (argon2; pg's optional pg-native), or start worker threads from their
 * own files (pino's transports).
 */
const external = [
  "@electric-sql/pglite",
  "@fastify/swagger",
  "@fastify/swagger-ui",
  "@node-rs/argon2",
  "pg-native",
  "pino",
  "thread-stream",
];

/**
 * The server's entry by default; the browser journeys on two instances build theirs (scripts/e2e-app.ts)
 * the same way, so that they run the server as production does.
 */
export async function buildServer({ entry = "src/server/main.ts", outfile = "dist/server/main.js" } = {}) {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    external,
    // CommonJS packages inside an ES module still call require(): this one resolves from dist/server, so
    // Node's built-ins and the packages above are found as before.
    banner: {
      js: "import { createRequire as createRequireForPackages } from 'node:module'; const require = createRequireForPackages(import.meta.url);",
    },
    // Read at every start (`--enable-source-maps`), so kept small: the mappings without the sources'
    // text (a stack trace needs only file, line and column), and the code without the spaces and
    // comments V8 would otherwise scan. Names are kept, so a trace read without the map still says where.
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
