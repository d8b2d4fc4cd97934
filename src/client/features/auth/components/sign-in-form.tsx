import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle } from "lucide-react";
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { PasswordField } from "#client/components/ui/password-input.tsx";
import { useSignIn } from "#client/features/auth/auth.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useNavigate, useSearchParams } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { pathAfterSignIn, returnParam, signInNoticeParam } from "#shared/users/return-path.ts";
import { SocialSignIn } from "./social-sign-in.tsx";

// Only people with two-factor sign-in need the second step: its code stays out of /sign-in's first load.
const TwoFactorStep = lazy(() => import("./two-factor-step.tsx"));

export function SignInForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = searchParams.get(returnParam);
  const signIn = useSignIn();
  const submitRef = useRef<HTMLButtonElement>(null);
  const [errors, setErrors] = useState<SignInErrors>({});
  const [isSubmitting, setIsSubmitting] = useState(false);
  // /sign-in is drawn into the HTML at build time (decision 043) and works before its code has arrived, or
  // without it: the form posts to the page's own address, where the server signs in through the same API
  // and redirects as below, or draws this page again with the API's answer (decision 065).
  const answer = useFormAnswer("sign-in");
  const [answerShown, setAnswerShown] = useState(answer?.step ? null : answer);
  const [needsCode, setNeedsCode] = useState(answer?.step === "code");
  useSignInFirstNotice();

  // The first screen of the app: checked by hand rather than with react-hook-form and zod, which would
  // double the JavaScript of /sign-in (decision 031). The server checks the same rules again.
  const handleSignIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAnswerShown(null);
    const data = new FormData(event.currentTarget);
    const input = {
      email: String(data.get("email") ?? "").trim(),
      password: String(data.get("password") ?? ""),
    };
    const found = signInErrorsOf(input);
    setErrors(found);
    if (found.email || found.password) {
      const field = event.currentTarget.elements.namedItem(found.email ? "email" : "password");
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    setIsSubmitting(true);
    try {
      const outcome = await signIn.mutateAsync(input);
      if (outcome.needsCode) setNeedsCode(true);
      else navigate(pathAfterSignIn(outcome.actor.role, next), { replace: true });
    } catch (error) {
      // A wrong e-mail or password reads "Wrong user credentials"; inactive or rate-limited say why.
      toast.error(isApiError(error, 401) ? wrongCredentials() : messageOf(error));
      // On a phone the button may sit where the toast appears: once the form has re-rendered, lift it
      // above (html's scroll-padding-bottom keeps the toast's height free).
      requestAnimationFrame(() => submitRef.current?.scrollIntoView({ block: "nearest" }));
    } finally {
      setIsSubmitting(false);
    }
  };

  if (needsCode) {
    return (
      <Suspense fallback={<LoaderCircle aria-hidden="true" className="mx-auto size-5 animate-spin" />}>
        <TwoFactorStep
          next={next}
          answerMessage={answer?.step === "code" ? answer.message : undefined}
          onCancel={() => setNeedsCode(false)}
        />
      </Suspense>
    );
  }

  return (
    <>
      <form method="post" name="sign-in" noValidate onSubmit={handleSignIn} className="flex flex-col gap-5">
        {answerShown ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {answerShown.status === 401 ? wrongCredentials() : answerShown.message}
          </p>
        ) : null}
        <TextField
          defaultValue={answer?.values.email}
          label={t`Email`}
          error={errors.email}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          name="email"
        />
        <PasswordField
          label={t`Password`}
          error={errors.password}
          autoComplete="current-password"
          name="password"
        />
        <div className="-mt-2 flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            <Trans>Forgot password?</Trans>
          </Link>
        </div>
        <Button ref={submitRef} type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Sign In</Trans>
        </Button>
      </form>
      <SocialSignIn returnTo={next} />
      <p className="mt-6 text-center text-sm text-slate-500">
        <Trans>
          Don&apos;t have an account?{" "}
          <Link to="/sign-up" className="font-medium text-indigo-600 hover:text-indigo-500">
            Sign up
          </Link>
        </Trans>
      </p>
    </>
  );
}

/**
 * Sent here by the server from a page that needs a session (role selection, two-factor setup): say
 * "Please sign in first" once, then drop the parameter, so that a reload does not say it again.
 */
function useSignInFirstNotice() {
  const [searchParams, setSearchParams] = useSearchParams();
  const notice = searchParams.get(signInNoticeParam);
  useEffect(() => {
    if (notice !== "sign-in-first") return;
    toast.error(tc`Please sign in first`, { toastId: "sign-in-first" });
    const kept = new URLSearchParams(searchParams);
    kept.delete(signInNoticeParam);
    setSearchParams(kept, { replace: true });
  }, [notice, searchParams, setSearchParams]);
}

/** A wrong e-mail or password, in the app's words for it (said the same whether the code had arrived or not). */
const wrongCredentials = () => tc`Wrong user credentials`;

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : tc`Something went wrong. Please try again.`;

interface SignInErrors {
  email?: string;
  password?: string;
}

// The shared emailSchema's and signInInputSchema's rules and messages (user.schemas.ts), without importing
// that module, which would bring zod along.
const passwordMaxLength = 128;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function signInErrorsOf({ email, password }: { email: string; password: string }): SignInErrors {
  const errors: SignInErrors = {};
  if (!emailPattern.test(email)) errors.email = tc`Enter a valid e-mail address`;
  else if (email.length > 254) errors.email = tc`E-mail is too long`;
  if (!password) errors.password = tc`Password is required`;
  else if (password.length > passwordMaxLength)
    errors.password = tc`Password must be at most ${passwordMaxLength} characters`;
  return errors;
}
