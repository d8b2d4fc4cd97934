import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { fetchSignedInActor } from "#client/features/auth/auth.api.ts";
import { apiFetch, isApiError } from "#client/lib/api-client.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { replaceActor } from "#client/lib/use-actor.ts";
import { pathAfterSignIn } from "#shared/users/return-path.ts";

/**
 * The second step of a password sign-in for someone with two-factor sign-in (decision 046): the 6-digit code
 * from their authenticator app, or one of their recovery codes. Loaded only when the password was right.
 */
/** The second step of a sign-in: a code from the authenticator app, or one of the recovery codes. */
function useVerifySignInCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ code, isRecoveryCode }: { code: string; isRecoveryCode: boolean }) => {
      const path = isRecoveryCode ? "verify-backup-code" : "verify-totp";
      await apiFetch(`/api/auth/two-factor/${path}`, { method: "POST", body: { code } });
      return fetchSignedInActor();
    },
    onSuccess: (actor) => replaceActor(queryClient, actor),
  });
}

// The shared totpCodePattern, without importing its module, which would bring zod along.
const totpCodePattern = /^\d{6}$/;

export default function TwoFactorStep({
  next,
  answerMessage,
  onCancel,
}: {
  next: string | null;
  /** The server's answer to this step posted without the app's code (decision 065), if it refused. */
  answerMessage?: string | undefined;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const verify = useVerifySignInCode();
  const [isRecoveryCode, setIsRecoveryCode] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>(answerMessage || undefined);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = isRecoveryCode ? code.trim() : code.replace(/\s/g, "");
    if (!isRecoveryCode && !totpCodePattern.test(typed)) {
      setError(t`Enter the 6-digit code from your authenticator app`);
      return;
    }
    if (isRecoveryCode && typed.length === 0) {
      setError(t`Enter one of your recovery codes`);
      return;
    }
    setError(undefined);
    try {
      const actor = await verify.mutateAsync({ code: typed, isRecoveryCode });
      navigate(pathAfterSignIn(actor.role, next), { replace: true });
    } catch (failure) {
      if (isApiError(failure, 401) && /cookie/i.test(failure.message)) {
        setError(t`This sign-in has expired. Enter your password again.`);
      } else if (isApiError(failure, 401)) {
        setError(
          isRecoveryCode
            ? t`That recovery code is not valid or was already used.`
            : t`That code is not right. Check that your device's clock is correct and try the newest code.`,
        );
      } else if (isApiError(failure, 400) && /too many/i.test(failure.message)) {
        setError(t`Too many wrong codes. Enter your password again.`);
      } else {
        setError(failure instanceof Error ? failure.message : t`Something went wrong. Please try again.`);
      }
    }
  };

  return (
    // Posted to the sign-in page's address without the app's code; the server completes the sign-in.
    <form method="post" name="sign-in" noValidate onSubmit={handleSubmit} className="flex flex-col gap-5">
      <input type="hidden" name="kind" value={isRecoveryCode ? "recovery" : "app"} />
      <p className="text-sm text-slate-600">
        {isRecoveryCode ? (
          <Trans>Enter one of the recovery codes you saved when you set up two-factor sign-in.</Trans>
        ) : (
          <Trans>Open your authenticator app and enter the 6-digit code it shows for Helpdesk.</Trans>
        )}
      </p>
      <TextField
        key={isRecoveryCode ? "recovery" : "app"}
        label={isRecoveryCode ? t`Recovery code` : t`Authentication code`}
        error={error}
        name="code"
        autoComplete="one-time-code"
        inputMode={isRecoveryCode ? "text" : "numeric"}
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <Button type="submit" size="lg" className="w-full" disabled={verify.isPending}>
        {verify.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        <Trans>Verify</Trans>
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="font-medium text-indigo-600 hover:text-indigo-500"
          onClick={() => {
            setIsRecoveryCode(!isRecoveryCode);
            setCode("");
            setError(undefined);
          }}
        >
          {isRecoveryCode ? <Trans>Use the authenticator app</Trans> : <Trans>Use a recovery code</Trans>}
        </button>
        <button type="button" className="font-medium text-slate-600 hover:text-slate-500" onClick={onCancel}>
          <Trans>Back to password</Trans>
        </button>
      </div>
    </form>
  );
}
