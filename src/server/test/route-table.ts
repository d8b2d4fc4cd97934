import type { FastifyInstance } from "fastify";

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route Fastify has registered, read from its own route table (its radix tree as printed by
 * printRoutes), so that tests over "every route" cover routes added later without being touched.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const found: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split("\n")) {
    const marker = line.indexOf("── ");
    if (marker < 0) continue;
    const depth = (marker - 1) / 4;
    const [, segment = "", methods = ""] = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(marker + 3)) ?? [];
    prefixes[depth] = segment;
    prefixes.length = depth + 1;
    for (const method of methods.split(", ").filter(Boolean)) found.push({ method, url: prefixes.join("") });
  }
  return found;
}
