import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Field, TextField } from "#client/components/ui/field.tsx";
import { PasswordField } from "#client/components/ui/password-input.tsx";
import {
  type NewTwoFactor,
  secretOf,
  useConfirmTwoFactor,
  useStartTwoFactorSetup,
} from "#client/features/two-factor/two-factor.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { totpCodePattern } from "#shared/users/two-factor.ts";

const messageOf = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

/**
 * Setting up two-factor sign-in: the password, then the secret for the authenticator app, then its first code,
 * then the recovery codes, shown once. `onDone` runs when the person has seen their recovery codes.
 */
export function TwoFactorSetup({ onDone }: { onDone: () => void }) {
  const [started, setStarted] = useState<NewTwoFactor | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  if (!started) return <PasswordStep onStarted={setStarted} />;
  if (!confirmed) return <AppStep started={started} onConfirmed={() => setConfirmed(true)} />;
  return <RecoveryCodes codes={started.backupCodes} onDone={onDone} />;
}

function PasswordStep({ onStarted }: { onStarted: (started: NewTwoFactor) => void }) {
  const { t } = useLingui();
  const start = useStartTwoFactorSetup();
  const [error, setError] = useState<string | undefined>();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (!password) {
      setError(t`Password is required`);
      return;
    }
    try {
      onStarted(await start.mutateAsync(password));
    } catch (failure) {
      setError(
        isApiError(failure, 400) && /password/i.test(failure.message)
          ? t`That password is not right.`
          : messageOf(failure, t`Something went wrong. Please try again.`),
      );
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        <Trans>Enter your password to start. You will need an authenticator app on your phone.</Trans>
      </p>
      <PasswordField label={t`Password`} error={error} autoComplete="current-password" name="password" />
      <div className="flex justify-end">
        <Button type="submit" disabled={start.isPending}>
          <Trans>Continue</Trans>
        </Button>
      </div>
    </form>
  );
}

function AppStep({ started, onConfirmed }: { started: NewTwoFactor; onConfirmed: () => void }) {
  const { t } = useLingui();
  const confirm = useConfirmTwoFactor();
  const secretId = useId();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const secret = secretOf(started.totpURI);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, "");
    if (!totpCodePattern.test(typed)) {
      setError(t`Enter the 6-digit code from your authenticator app`);
      return;
    }
    try {
      await confirm.mutateAsync(typed);
      onConfirmed();
    } catch (failure) {
      setError(
        isApiError(failure, 401)
          ? t`That code is not right. Check that your device's clock is correct and try the newest code.`
          : messageOf(failure, t`Something went wrong. Please try again.`),
      );
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600">
        <li>
          <Trans>
            In your authenticator app, add an account: open the setup link on this phone, or type in the key
            below (time-based).
          </Trans>
        </li>
        <li>
          <Trans>Enter the 6-digit code the app then shows.</Trans>
        </li>
      </ol>
      <Field label={t`Setup key`} htmlFor={secretId}>
        <input
          id={secretId}
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm tracking-wider text-slate-900"
        />
      </Field>
      <a href={started.totpURI} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
        <Trans>Open in authenticator app</Trans>
      </a>
      <TextField
        label={t`Authentication code`}
        error={error}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={confirm.isPending}>
          <Trans>Turn on</Trans>
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-col gap-4">
      <p
        role="status"
        className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
      >
        <Trans>Two-factor sign-in is on.</Trans>
      </p>
      <p className="text-sm text-slate-600">
        <Trans>
          Save these recovery codes somewhere safe. Each signs you in once if your phone is not at hand. They
          are shown only now.
        </Trans>
      </p>
      <ul
        aria-label={t`Recovery codes`}
        className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 font-mono text-sm text-slate-900"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex justify-end">
        <Button onClick={onDone}>
          <Trans>I have saved them</Trans>
        </Button>
      </div>
    </div>
  );
}
