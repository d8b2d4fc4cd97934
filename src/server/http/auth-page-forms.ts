import { redirectFor } from "#shared/page-rendering/page-access.ts";
import { formDone, withFormDone } from "#shared/page-rendering/page-forms.ts";
import { homePathFor } from "#shared/users/roles.ts";
import {
  adminSignUpInputSchema,
  forgotPasswordInputSchema,
  type Me,
  resetPasswordFormSchema,
  signUpInputSchema,
} from "#shared/users/user.schemas.ts";
import { checkFields, codeOf, cookiesOf, type FormOutcome, messageOf, type PageForm } from "./page-forms.ts";
import { whereAfterSignIn } from "./sign-in-page-form.ts";

// The account forms around sign-in, as plain HTML forms that work before and without the app's code
// (decision 065). Each is checked as the app checks it (the shared schemas), sent to the API route the app
// calls (src/client/features/auth/auth.api.ts), and answered as the app answers: the same page next, or
// this page again with the API's answer. After a sign-up the home says the app's toast (?done=registered);
// the other success toasts after a redirect stay with the app: the page arrived at says it (home, signed
// in; the sign-in page after a reset).

type Input = Parameters<PageForm["submit"]>[0];

/** /sign-up: a new account, signed in at once; home by role (src/client/features/auth/components/sign-up-form.tsx). */
async function signUp({ fields, url, ask }: Input): Promise<FormOutcome> {
  const checked = checkFields(signUpInputSchema, fields);
  if ("fieldErrors" in checked) return { status: 400, message: "", fieldErrors: checked.fieldErrors };
  const answer = await ask("POST", "/api/auth/sign-up/email", checked.data);
  if (answer.statusCode !== 200)
    return { status: answer.statusCode, message: messageOf(answer), code: codeOf(answer) };
  const cookies = cookiesOf(answer);
  // The app's toast, "Registration was a success", said by the home (?done=registered).
  const next = await whereAfterSignIn(ask, cookies, url);
  return {
    redirect: withFormDone(next, formDone.registered),
    cookies,
  };
}

/** The app's words on the forgot-password page when the mail went out (its toast). */
export const resetMailSent = "Reset email was sent successfully.";

/** /forgot-password: the server answers the same whether the address has an account or not; so does the page. */
async function requestPasswordReset({ fields, ask }: Input): Promise<FormOutcome> {
  const checked = checkFields(forgotPasswordInputSchema, fields);
  if ("fieldErrors" in checked) return { status: 400, message: "", fieldErrors: checked.fieldErrors };
  const answer = await ask("POST", "/api/auth/request-password-reset", {
    email: checked.data.email,
    redirectTo: "/reset-password",
  });
  if (answer.statusCode !== 200) return { status: answer.statusCode, message: messageOf(answer) };
  return { status: 200, message: resetMailSent };
}

/** /reset-password?token=…: the mailed link's page; the sign-in page next, as in the app. */
async function resetPassword({ fields, url, ask }: Input): Promise<FormOutcome> {
  const token = url.searchParams.get("error") ? null : url.searchParams.get("token") || null;
  // The page shows no form without a token (a used-up link): say what it says.
  if (!token) return { status: 400, message: "Invalid token", code: "INVALID_TOKEN" };
  const checked = checkFields(resetPasswordFormSchema(), fields);
  if ("fieldErrors" in checked) return { status: 400, message: "", fieldErrors: checked.fieldErrors };
  const answer = await ask("POST", "/api/auth/reset-password", {
    token,
    newPassword: checked.data.newPassword,
  });
  if (answer.statusCode !== 200)
    return { status: answer.statusCode, message: messageOf(answer), code: codeOf(answer) };
  // Every session of the account has ended: whatever cookie the API cleared goes too.
  return { redirect: "/sign-in", cookies: cookiesOf(answer) };
}

/**
 * /admin-signup: the administrator is created without a session, then signed in with what was typed, as
 * the app does; the admin home next, or the sign-in page when that sign-in did not go through.
 */
async function registerAdmin({ fields, ask }: Input): Promise<FormOutcome> {
  const checked = checkFields(adminSignUpInputSchema, fields);
  if ("fieldErrors" in checked) return { status: 400, message: "", fieldErrors: checked.fieldErrors };
  const answer = await ask("POST", "/api/admin-signup", checked.data);
  if (answer.statusCode !== 201) return { status: answer.statusCode, message: messageOf(answer) };
  const { email, password } = checked.data;
  const signedIn = await ask("POST", "/api/auth/sign-in/email", { email, password });
  if (signedIn.statusCode !== 200) return { redirect: "/sign-in" };
  return { redirect: "/admin-home", cookies: cookiesOf(signedIn) };
}

/**
 * /role-selection: chosen once; home next. Signed out, the sign-in page (which says "Please sign in
 * first"); a role set meanwhile (409), home too, as the app's page then goes.
 */
async function chooseRole({ fields, url, ask }: Input): Promise<FormOutcome> {
  const answer = await ask("POST", "/api/me/role", { role: fields.role ?? "" });
  if (answer.statusCode === 200) return { redirect: homePathFor(answer.json<Me>().role) };
  if (answer.statusCode === 401)
    return { redirect: redirectFor(`${url.pathname}${url.search}`, null) ?? "/sign-in" };
  if (answer.statusCode === 409) {
    const me = await ask("GET", "/api/me");
    const role = me.statusCode === 200 ? me.json<Me | null>()?.role : undefined;
    if (role) return { redirect: homePathFor(role) };
  }
  return { status: answer.statusCode, message: messageOf(answer) };
}

/** The account forms, by the page each is on; passwords and the admin key are never written back. */
export const authPageForms: PageForm[] = [
  { path: "/sign-up", name: "sign-up", secretFields: ["password"], submit: signUp },
  { path: "/forgot-password", name: "forgot-password", submit: requestPasswordReset },
  {
    path: "/reset-password",
    name: "reset-password",
    secretFields: ["newPassword", "confirmPassword"],
    submit: resetPassword,
  },
  {
    path: "/admin-signup",
    name: "admin-signup",
    secretFields: ["password", "adminKey"],
    submit: registerAdmin,
  },
  { path: "/role-selection", name: "role-selection", submit: chooseRole },
];
