import { zodResolver } from "@hookform/resolvers/zod";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { KeyRound, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { useAdminSignUp, useSignIn } from "#client/features/auth/auth.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";
import { type AdminSignUpInput, adminSignUpInputSchema } from "#shared/users/user.schemas.ts";
import { NewAccountFields } from "./new-account-fields.tsx";

const registrationFailed = () => t`Something went wrong with the admin registration`;

/** The failure toasts; a rate-limited attempt says when to try again. */
function failureMessage(error: unknown) {
  if (isApiError(error, 403)) return t`Invalid admin key. Access denied.`;
  if (isApiError(error, 429)) return error.message;
  return registrationFailed();
}

/** The same words for the server's answer to the form posted without the app's code (decision 065). */
function answerMessage({ status, message }: FormAnswer) {
  if (status === 403) return t`Invalid admin key. Access denied.`;
  if (status === 429) return message;
  return registrationFailed();
}

export function AdminSignUpForm() {
  const navigate = useNavigate();
  const adminSignUp = useAdminSignUp();
  const signIn = useSignIn();
  // Posted before or without the code, the server registered through the same API and drew this page
  // again with its answer (decision 065): said here, where the app says it in a toast; never the key.
  const answer = useFormAnswer("admin-signup");
  const [answerShown, setAnswerShown] = useState(answer);
  // No default values: each field starts from what the page shows, which react-hook-form reads when it
  // takes the field over (typed before the code arrived, or the answer's values).
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AdminSignUpInput>({ resolver: zodResolver(adminSignUpInputSchema) });

  const handleRegister = handleSubmit(async ({ name, email, password, adminKey }) => {
    try {
      await adminSignUp.mutateAsync({ name, email, password, adminKey });
    } catch (error) {
      toast.error(failureMessage(error));
      return;
    }
    toast.success(t`Admin account created successfully`);
    // The registration starts no session: sign in with what was just typed.
    try {
      await signIn.mutateAsync({ email, password });
      navigate("/admin-home", { replace: true });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Please sign in with your new account.`);
      navigate("/sign-in", { replace: true });
    }
  });

  return (
    <>
      <div
        role="note"
        className="mb-6 flex gap-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900"
      >
        <KeyRound aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-600" />
        <div>
          <p className="font-medium">
            <Trans>A valid admin key is needed.</Trans>
          </p>
          <p className="mt-1 text-amber-800">
            <Trans>
              The key is the server&apos;s <code className="font-mono text-xs">ADMIN_SIGNUP_KEY</code>{" "}
              setting. If none is set, the server creates one at its first start and prints it in its log. Ask
              whoever runs the server.
            </Trans>
          </p>
        </div>
      </div>
      <form
        method="post"
        name="admin-signup"
        noValidate
        onSubmit={(event) => {
          setAnswerShown(null);
          return handleRegister(event);
        }}
        className="flex flex-col gap-5"
      >
        {answerShown?.message ? <Alert>{answerMessage(answerShown)}</Alert> : null}
        <NewAccountFields
          register={register}
          errors={errors}
          answerErrors={answerShown?.fieldErrors}
          values={answer?.values}
        />
        <TextField
          label={t`Admin Secret Key`}
          error={errors.adminKey?.message ?? answerShown?.fieldErrors?.adminKey}
          type="password"
          autoComplete="off"
          spellCheck={false}
          {...register("adminKey")}
        />
        <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Create Admin Account</Trans>
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-500">
        <Trans>
          Already have an account?{" "}
          <Link to="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
            Sign in
          </Link>
        </Trans>
      </p>
    </>
  );
}
