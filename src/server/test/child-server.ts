import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

export interface ChildServer {
  process: ChildProcess;
  port: number;
  url: string;
  /** Resolves with the exit code (null when ended by a signal) once the process has ended. */
  exited: Promise<number | null>;
  output(): string;
}

// Every child still running: killed when the test file's process ends, whatever ended it, so that a
// failing test leaves no server behind.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Kills (SIGKILL) every child server still running and waits until they have ended. For afterAll. */
export async function stopChildServers() {
  const ending = [...running].map(
    (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : child.once("exit", () => resolve()),
      ),
  );
  for (const child of running) child.kill("SIGKILL");
  await Promise.all(ending);
}

/**
 * The production entry point (src/server/main.ts) in a child process on a free loopback port, with only the
 * settings given (no .env, nothing inherited but PATH). Resolves once it listens.
 *
 * Node itself runs main.ts (tsx as a loader hook, not tsx's command line, which would start the server in
 * a grandchild): the pid held here is the server's, so a signal sent to `process` reaches the server, and
 * SIGKILL ends it outright.
 */
export function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
      if (listening)
        resolve({
          process: child,
          port: Number(listening[2]),
          url: listening[1]!,
          exited,
          output: () => output,
        });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}
