import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { settings, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 024: a person creates a personal API token in /profile, sees it once, and uses it with the
// real curl exactly as docs/api.md tells them to (the command is read from the doc: if the doc drifts
// from what the server accepts, this journey fails).

/** The token example under "Personal API token" in docs/api.md, one command line. */
function documentedTokenCurl(): string {
  const doc = readFileSync(new URL("../docs/api.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("**Personal API token**"));
  const line = section.split("\n").find((text) => text.trim().startsWith("curl "));
  if (!line) throw new Error("docs/api.md has no curl example for personal API tokens");
  return line.trim();
}

/** Splits a shell command line into words as sh would, expanding $NAME inside double quotes or bare. */
function shellWords(command: string, variables: Record<string, string>): string[] {
  const words: string[] = [];
  for (const [, double, single, bare] of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    const expand = (text: string) =>
      text.replace(/\$(\w+)|\$\{(\w+)\}/g, (_, a?: string, b?: string) => {
        const name = (a ?? b)!;
        if (!(name in variables))
          throw new Error(`The documented command uses $${name}, unknown to the test`);
        return variables[name]!;
      });
    words.push(single ?? expand(double ?? bare ?? ""));
  }
  return words;
}

/**
 * Runs /usr/bin/curl with the documented arguments; `--silent --write-out` only add the status code after
 * the body, so the test can read it (the documented arguments are passed unchanged).
 */
async function runDocumentedCurl(token: string): Promise<{ status: number; body: string }> {
  const [program, ...args] = shellWords(documentedTokenCurl(), {
    HELPDESK_TOKEN: token,
    BASE_URL: settings.baseURL,
  });
  expect(program).toBe("curl");
  const { stdout } = await promisify(execFile)("/usr/bin/curl", [
    "--silent",
    "--show-error",
    "--write-out",
    "\n%{http_code}",
    ...args,
  ]);
  const cut = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

test("a person creates a token in /profile, copies it once, and lists their tickets with it from a script", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Tia", "User");
  const title = `Printer offline ${unique("tok")}`;
  await createTicketThroughApi(user.page, { title });

  await user.page.goto("/profile");
  const card = user.page.getByRole("region", { name: "API tokens" });
  await expect(card.getByText("You have no API tokens.")).toBeVisible();
  await card.getByRole("button", { name: "New token" }).click();
  const dialog = user.page.getByRole("dialog", { name: "New API token" });
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await dialog.getByLabel("Name").fill("Nightly report");
  await dialog.getByLabel("Access").selectOption("read");
  await dialog.getByLabel("Expires after").selectOption("30");
  await dialog.getByRole("button", { name: "Create token" }).click();

  const shown = user.page.getByRole("dialog", { name: 'Token "Nightly report" created' });
  const token = await shown.getByLabel("Your token").inputValue();
  expect(token).toMatch(/^hd_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  await expect(
    shown.getByText(`curl -H "Authorization: Bearer ${token}" ${settings.baseURL}/api/tickets`),
  ).toBeVisible();
  await user.page.screenshot({ path: "e2e/.artifacts/screens/api-token-created.png" });
  await shown.getByRole("button", { name: "Done" }).click();

  // Listed without its secret: the page never shows the token again.
  await expect(card.getByText("Nightly report")).toBeVisible();
  await expect(card.getByText("Read only")).toBeVisible();
  await expect(user.page.getByText(token)).toHaveCount(0);
  await user.page.screenshot({ path: "e2e/.artifacts/screens/profile-api-tokens.png", fullPage: true });

  // The curl of the docs, the real binary: the person's own tickets as JSON.
  const answer = await runDocumentedCurl(token);
  expect(answer.status).toBe(200);
  const list = JSON.parse(answer.body) as { items: { title: string }[] };
  expect(list.items.map((ticket) => ticket.title)).toContain(title);
  const write = await fetch(`${settings.baseURL}/api/tickets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "From a script" }),
  });
  expect(write.status).toBe(403);

  // Revoked after a confirmation, the token is refused.
  await card.getByRole("button", { name: "Revoke Nightly report" }).click();
  await user.page
    .getByRole("dialog", { name: "Revoke this token?" })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(user.page.getByText("Token revoked")).toBeVisible();
  await expect(card.getByText("You have no API tokens.")).toBeVisible();
  const refused = await runDocumentedCurl(token);
  expect(refused.status).toBe(401);
  expect(JSON.parse(refused.body)).toMatchObject({ code: "unauthenticated" });
});
