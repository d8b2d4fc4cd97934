import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { LinkIcon, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button, buttonClass } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { PasswordField } from "#client/components/ui/password-input.tsx";
import { useResetPassword } from "#client/features/auth/auth.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { resetPasswordFormSchema } from "#shared/users/user.schemas.ts";

/** `token` is null when the link carried none, or the server already said it is invalid (?error=…). */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  // Posted before or without the code, the server reset through the same API and drew this page again
  // with its answer (decision 065); the passwords are never in it.
  const answer = useFormAnswer("reset-password");
  const [isTokenRefused, setIsTokenRefused] = useState(answer?.code === "INVALID_TOKEN");
  const [serverError, setServerError] = useState(answer?.message || null);
  const [answerErrors, setAnswerErrors] = useState(answer?.fieldErrors ?? {});
  const mismatch = t`Passwords do not match`;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(resetPasswordFormSchema(mismatch)) });

  if (token === null || isTokenRefused) return <InvalidResetLink />;

  const handleReset = handleSubmit(async ({ newPassword }) => {
    setServerError(null);
    try {
      await resetPassword.mutateAsync({ token, newPassword });
      toast.success(t`Your password has been reset. Sign in with your new password.`);
      navigate("/sign-in", { replace: true });
    } catch (error) {
      if (isApiError(error, 400) && error.code === "INVALID_TOKEN") setIsTokenRefused(true);
      else if (isApiError(error, 429)) toast.error(error.message);
      else
        setServerError(error instanceof Error ? error.message : t`Something went wrong. Please try again.`);
    }
  });

  return (
    <form
      method="post"
      name="reset-password"
      noValidate
      onSubmit={(event) => {
        setAnswerErrors({});
        return handleReset(event);
      }}
      className="flex flex-col gap-5"
    >
      <PasswordField
        label={t`New password`}
        error={errors.newPassword?.message ?? answerErrors.newPassword}
        autoComplete="new-password"
        placeholder={t`At least 8 characters`}
        {...register("newPassword")}
      />
      <TextField
        label={t`Confirm password`}
        // The one thing the server finds wrong with a second field that is sent: it is not the same.
        error={errors.confirmPassword?.message ?? (answerErrors.confirmPassword ? mismatch : undefined)}
        type="password"
        autoComplete="new-password"
        {...register("confirmPassword")}
      />
      {serverError ? <Alert>{serverError}</Alert> : null}
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        <Trans>Set Password</Trans>
      </Button>
    </form>
  );
}

function InvalidResetLink() {
  return (
    <div className="flex flex-col items-center text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
        <LinkIcon aria-hidden="true" className="size-6" />
      </span>
      <p role="alert" className="mt-4 font-semibold text-slate-900">
        <Trans>This reset link is invalid or has expired.</Trans>
      </p>
      <p className="mt-1 text-sm text-slate-500">
        <Trans>A link works once and expires one hour after it was sent. Ask for a new one.</Trans>
      </p>
      <Link to="/forgot-password" className={buttonClass("primary", "md", "mt-5")}>
        <Trans>Request a new link</Trans>
      </Link>
      <Link to="/sign-in" className="mt-4 text-sm font-medium text-indigo-600 hover:text-indigo-500">
        <Trans>Back to sign in</Trans>
      </Link>
    </div>
  );
}
