import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { useRequestPasswordReset } from "#client/features/auth/auth.api.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { Link } from "#client/lib/router/links.tsx";
import { toast } from "#client/lib/toast.ts";
import { forgotPasswordInputSchema } from "#shared/users/user.schemas.ts";

export function ForgotPasswordForm() {
  const { t } = useLingui();
  const requestReset = useRequestPasswordReset();
  // One message at a time: a second press replaces the first's, so "sent" and a refusal never stand together.
  const lastMessage = useRef<string | null>(null);
  const say = (show: () => string) => {
    if (lastMessage.current) toast.dismiss(lastMessage.current);
    lastMessage.current = show();
  };
  // Posted before or without the code, the server asked for the mail through the same API and drew this
  // page again with its answer (decision 065): said here, where the app says it in a toast.
  const answer = useFormAnswer("forgot-password");
  const [answerShown, setAnswerShown] = useState(answer);
  // No default value: the field starts from what the page shows, which react-hook-form reads when it
  // takes it over (typed before the code arrived, or the address sent).
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordInputSchema) });

  const handleSend = handleSubmit(async ({ email }) => {
    try {
      await requestReset.mutateAsync(email);
      // The server answers the same whether or not the address has an account, and so do we.
      say(() => toast.success(t`Reset email was sent successfully.`));
    } catch (error) {
      console.error("Password reset request failed", error);
      say(() =>
        toast.error(error instanceof Error ? error.message : t`Something went wrong. Please try again.`),
      );
    }
  });

  return (
    <>
      <form
        method="post"
        name="forgot-password"
        noValidate
        onSubmit={(event) => {
          setAnswerShown(null);
          return handleSend(event);
        }}
        className="flex flex-col gap-5"
      >
        {answerShown?.status === 200 ? (
          <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-700">
            <Trans>Reset email was sent successfully.</Trans>
          </p>
        ) : answerShown?.message ? (
          <Alert>{answerShown.message}</Alert>
        ) : null}
        <TextField
          label={t`Email`}
          error={errors.email?.message ?? answerShown?.fieldErrors?.email}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          defaultValue={answer?.values.email}
          {...register("email")}
        />
        <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Send Reset Password</Trans>
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-500">
        <Trans>
          Remembered it?{" "}
          <Link to="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
            Back to sign in
          </Link>
        </Trans>
      </p>
    </>
  );
}
