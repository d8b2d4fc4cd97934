/** scripts/build-server.mjs: compiles a server entry (src/server/main.ts by default) into one ES module. */
export function buildServer(options?: { entry?: string; outfile?: string }): Promise<void>;
