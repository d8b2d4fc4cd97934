import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Building2, LoaderCircle } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { authProvidersQuery, type SocialProvider, useSocialSignIn } from "#client/features/auth/auth.api.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";

const googleAuthorizationFailed = () => t`Could not authorize with Google.`;
const accountDeactivated = () => t`This account has been deactivated. Contact your administrator.`;

/** "Sign in with Contoso" → "Contoso": the label names the provider. */
const providerOf = (label: string | undefined) =>
  label?.replace(/^(sign in|log in|continue) with\s+/i, "").trim() || undefined;

/** "Sign in with Contoso" → "Could not authorize with Contoso." */
export function oidcAuthorizationFailed(label: string | undefined) {
  const provider = providerOf(label);
  return provider ? t`Could not authorize with ${provider}.` : t`Could not authorize with your organisation.`;
}

/**
 * The provider said yes, but an account with this e-mail already exists and was not linked (decision 060):
 * because the provider did not say the address is verified, or because linking is switched off.
 */
function notLinked(reason: "email_not_verified" | "account_not_linked", provider: string | undefined) {
  if (reason === "email_not_verified") {
    return provider
      ? t`Your existing account was not linked: ${provider} has not verified this e-mail address. Sign in with your e-mail and password instead.`
      : t`Your existing account was not linked: your organisation has not verified this e-mail address. Sign in with your e-mail and password instead.`;
  }
  return t`An account with this e-mail address already exists, and single sign-on is not linked to it. Sign in the way you did before.`;
}

/**
 * "or", then Continue with Google and the organisation's single sign-on, each only when the server offers
 * it (nothing at all when it offers neither). The server says which in the page (decision 061), so the
 * page is drawn with them from its first paint; never a button that appears late or says it does not work.
 * `returnTo` is the page to come back to after the provider (see return-path.ts).
 */
export function SocialSignIn({ returnTo }: { returnTo?: string | null }) {
  const providers = useQuery(authProvidersQuery);
  const socialSignIn = useSocialSignIn(returnTo);
  const oidc = providers.data?.oidc ?? null;
  const hasGoogle = providers.data?.google === true;
  useAuthorizationErrorToast(providers.isPending ? undefined : (oidc?.label ?? null));

  // Back from the provider through the browser's Back button (page restored from the back-forward cache):
  // the buttons must not keep spinning.
  const { reset } = socialSignIn;
  useEffect(() => {
    const handlePageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", handlePageShow);
    return () => window.removeEventListener("pageshow", handlePageShow);
  }, [reset]);

  function handleSignIn(provider: SocialProvider) {
    socialSignIn.mutate(provider, {
      // The browser leaves for the provider; the button keeps spinning until the page unloads.
      onSuccess: ({ url }) => window.location.assign(url),
      onError: () =>
        toast.error(
          provider === "google" ? googleAuthorizationFailed() : oidcAuthorizationFailed(oidc?.label),
        ),
    });
  }

  const pendingProvider = socialSignIn.isPending || socialSignIn.isSuccess ? socialSignIn.variables : null;
  if (!hasGoogle && !oidc) return null;

  return (
    <>
      <div className="my-6 flex items-center gap-3 text-xs text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" />
        <Trans>or</Trans>
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <div className="flex flex-col gap-3">
        {hasGoogle ? (
          <Button
            variant="secondary"
            className="w-full"
            onClick={() => handleSignIn("google")}
            disabled={pendingProvider !== null}
          >
            {pendingProvider === "google" ? <Spinning /> : <GoogleLogo />}
            <Trans>Continue with Google</Trans>
          </Button>
        ) : null}
        {oidc ? (
          <Button
            variant="secondary"
            className="w-full"
            onClick={() => handleSignIn("oidc")}
            disabled={pendingProvider !== null}
          >
            {pendingProvider === "oidc" ? (
              <Spinning />
            ) : (
              <Building2 aria-hidden="true" className="size-4 text-slate-500" />
            )}
            {oidc.label}
          </Button>
        ) : null}
      </div>
    </>
  );
}

/**
 * A failed Google or organisation sign-in comes back as /sign-in?error=…[&provider=oidc]: say so once,
 * then drop the parameters so that a reload does not say it again. `oidcLabel` is undefined while loading.
 */
function useAuthorizationErrorToast(oidcLabel: string | null | undefined) {
  const [searchParams, setSearchParams] = useSearchParams();
  const error = searchParams.get("error");
  const isOidc = searchParams.get("provider") === "oidc";
  // The provider said yes but the account is deactivated or not linked: say that, not "could not authorize".
  const errors = searchParams.getAll("error");
  const isDeactivated = errors.includes("account_inactive");
  const notLinkedReason = errors.includes("email_not_verified")
    ? "email_not_verified"
    : errors.includes("account_not_linked")
      ? "account_not_linked"
      : null;
  useEffect(() => {
    if (!error || (isOidc && oidcLabel === undefined)) return;
    const provider = isOidc ? providerOf(oidcLabel ?? undefined) : "Google";
    const message = isDeactivated
      ? accountDeactivated()
      : notLinkedReason
        ? notLinked(notLinkedReason, provider)
        : isOidc
          ? oidcAuthorizationFailed(oidcLabel ?? undefined)
          : googleAuthorizationFailed();
    toast.error(message, { toastId: "authorization-failed" });
    setSearchParams({}, { replace: true });
  }, [error, isOidc, isDeactivated, notLinkedReason, oidcLabel, setSearchParams]);
}

const Spinning = () => <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />;

function GoogleLogo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
      <path
        fill="#4285F4"
        d="M23.5 12.27c0-.82-.07-1.6-.2-2.36H12v4.47h6.46a5.53 5.53 0 0 1-2.4 3.62v3h3.88c2.27-2.09 3.56-5.17 3.56-8.73Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.24 0 5.96-1.07 7.94-2.9l-3.88-3c-1.08.72-2.45 1.15-4.06 1.15-3.12 0-5.77-2.11-6.71-4.95H1.28v3.1A12 12 0 0 0 12 24Z"
      />
      <path
        fill="#FBBC05"
        d="M5.29 14.3A7.2 7.2 0 0 1 4.91 12c0-.8.14-1.57.38-2.3V6.6H1.28A12 12 0 0 0 0 12c0 1.94.46 3.77 1.28 5.4l4.01-3.1Z"
      />
      <path
        fill="#EA4335"
        d="M12 4.75c1.76 0 3.34.6 4.59 1.8l3.44-3.44C17.95 1.19 15.24 0 12 0A12 12 0 0 0 1.28 6.6l4.01 3.1C6.23 6.86 8.88 4.75 12 4.75Z"
      />
    </svg>
  );
}
