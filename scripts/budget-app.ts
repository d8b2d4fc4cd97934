// The app scripts/check-budgets.ts measures: started the way the browser journeys serve it
// (scripts/e2e-server.ts), and the people it signs in through the real API.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { timeZoneCookie } from "#shared/page-rendering/server-rendered.ts";

const password = "a long password for budgets";

/** The built app on this port (scripts/e2e-server.ts). */
export function startServer(root: string, port: number): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/e2e-server.ts")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, E2E_PORT: String(port) },
    detached: false,
  });
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

export async function waitUntilReady(baseURL: string) {
  for (let attempt = 0; attempt < 360; attempt++) {
    try {
      if ((await fetch(`${baseURL}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the app did not start on ${baseURL}`);
}

/** Signs up a fresh person with the role through the real API and answers their session cookie. */
export async function signedInCookie(baseURL: string, role: "user" | "technician"): Promise<string> {
  const email = `budget-${role}-${Date.now().toString(36)}@example.test`;
  const headers = { "content-type": "application/json", origin: baseURL };
  const signUp = await fetch(`${baseURL}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: `Budget ${role}`, email, password, role }),
  });
  if (!signUp.ok) throw new Error(`sign-up as ${role}: ${signUp.status} ${await signUp.text()}`);
  const signIn = await fetch(`${baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  if (!signIn.ok) throw new Error(`sign-in as ${role}: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0]!)
    .join("; ");
  const me = await fetch(`${baseURL}/api/me`, { headers: { cookie } });
  const actor = (await me.json()) as { role?: string } | null;
  if (actor?.role !== role)
    throw new Error(`signed in as ${role}, but /api/me says ${JSON.stringify(actor)}`);
  // A browser that has opened /sign-in has its time zone in a cookie (the inline head script's), which the
  // server needs to draw the home (decision 052); the same Chromium on this machine is in this zone.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${cookie}; ${timeZoneCookie}=${encodeURIComponent(timeZone)}`;
}

/** A Cookie header's cookies, for a browser's jar. */
export function cookiesOf(baseURL: string, cookie: string) {
  return cookie.split("; ").map((pair) => {
    const [name, ...value] = pair.split("=");
    return { name: name!, value: value.join("="), url: baseURL };
  });
}
