import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMailer } from "./mailer.ts";
import { passwordResetMail } from "./templates.ts";

describe("the outbox mailer (no SMTP_URL)", () => {
  it("writes each message as an .eml file and logs its link", async () => {
    const outboxDir = path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-mail-")), "outbox");
    const logged: string[] = [];
    const mailer = createMailer({ outboxDir, from: "Helpdesk <hd@test.local>", log: (m) => logged.push(m) });
    const url = "http://localhost:3000/api/auth/reset-password/abc?callbackURL=%2Freset-password";
    await mailer.send(passwordResetMail({ to: "rita@example.test", name: "Rita", url }));

    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = readFileSync(path.join(outboxDir, files[0]!), "utf8");
    expect(raw).toContain("To: rita@example.test");
    expect(raw).toContain("Subject: Reset your Helpdesk password");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(url);
  });
});
