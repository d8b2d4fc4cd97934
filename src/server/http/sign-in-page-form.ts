import { redirectFor } from "#shared/page-rendering/page-access.ts";
import { type AskApi, cookiesOf, type FormOutcome, messageOf, type PageForm } from "./page-forms.ts";
import { visitorOf } from "./page-visitor.ts";

/** The cookies of Set-Cookie headers as a request's Cookie header sends them back: name=value; … */
const asCookieHeader = (setCookies: readonly string[]) =>
  setCookies.map((cookie) => cookie.split(";")[0]).join("; ");

/**
 * Where a person goes once a form has signed them in: where the sign-in page would send them now (the
 * page they came for, or their home; two-factor setup, role selection), as the server decides for a GET.
 */
export async function whereAfterSignIn(ask: AskApi, cookies: readonly string[], url: URL): Promise<string> {
  const visitor = visitorOf(await ask("GET", "/api/me", undefined, { cookie: asCookieHeader(cookies) }));
  return (visitor && redirectFor(`/sign-in${url.search}`, visitor)) ?? `/sign-in${url.search}`;
}

async function signIn({ fields, url, ask }: Parameters<PageForm["submit"]>[0]): Promise<FormOutcome> {
  const answer = await ask("POST", "/api/auth/sign-in/email", {
    email: (fields.email ?? "").trim(),
    password: fields.password ?? "",
  });
  // The app says the same for a wrong e-mail or password (src/client/features/auth/components/sign-in-form.tsx).
  if (answer.statusCode !== 200) return { status: answer.statusCode, message: messageOf(answer) };
  const cookies = cookiesOf(answer);
  if (answer.json<{ twoFactorRedirect?: boolean } | null>()?.twoFactorRedirect) {
    return { status: 200, message: "", step: "code", cookies };
  }
  return { redirect: await whereAfterSignIn(ask, cookies, url), cookies };
}

/** The second step of a sign-in with two-factor sign-in: the authenticator's code, or a recovery code. */
async function verifyCode({ fields, url, ask }: Parameters<PageForm["submit"]>[0]): Promise<FormOutcome> {
  const code = (fields.code ?? "").replace(/\s+/g, "");
  const isRecoveryCode = fields.kind === "recovery";
  const answer = await ask(
    "POST",
    isRecoveryCode ? "/api/auth/two-factor/verify-backup-code" : "/api/auth/two-factor/verify-totp",
    { code },
  );
  if (answer.statusCode !== 200)
    return { status: answer.statusCode, message: messageOf(answer), step: "code" };
  const cookies = cookiesOf(answer);
  return { redirect: await whereAfterSignIn(ask, cookies, url), cookies };
}

/** / and /sign-in: the e-mail and password form, and its second step for two-factor sign-in. */
export const signInPageForms: PageForm[] = ["/", "/sign-in"].map((path) => ({
  path,
  name: "sign-in",
  secretFields: ["password", "code"],
  submit: (input) => ("code" in input.fields ? verifyCode(input) : signIn(input)),
}));
