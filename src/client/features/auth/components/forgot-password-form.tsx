import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle } from "lucide-react";
import { useRef } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { useRequestPasswordReset } from "#client/features/auth/auth.api.ts";
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
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordInputSchema), defaultValues: { email: "" } });

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
      <form noValidate onSubmit={handleSend} className="flex flex-col gap-5">
        <TextField
          label={t`Email`}
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
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
