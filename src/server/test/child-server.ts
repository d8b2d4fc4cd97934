import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

export interface ChildServer {
  process: ChildProcess;
  port: number;
  url: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  output(): string;
}

/**
 * The production entry point (src/server/main.ts) in a child process on a free loopback port, with only the
 * settings given (no .env, nothing inherited but PATH). Resolves once it listens.
 */
export function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "src/server/main.ts"],
    {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
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
