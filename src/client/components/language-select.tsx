import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Languages } from "lucide-react";
import { useId } from "react";
import { localeNames, locales, storedLocale } from "#client/lib/i18n.ts";
import { chooseLocaleHere, useSetLocale } from "#client/lib/locale.ts";
import { toast } from "#client/lib/toast.ts";
import { actorKeys } from "#client/lib/use-actor.ts";
import type { LocaleChoice, Me } from "#shared/users/user.schemas.ts";

/**
 * The language list: each language in its own name (so a person who cannot read the current one still
 * finds theirs), and optionally "the browser's language".
 */
function LanguageSelect({
  value,
  onChange,
  withBrowserChoice,
  className,
}: {
  value: LocaleChoice;
  onChange: (choice: LocaleChoice) => void;
  withBrowserChoice: boolean;
  className?: string;
}) {
  const { t } = useLingui();
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {t`Language`}
      </label>
      <div className="flex items-center gap-2">
        <Languages aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value as LocaleChoice)}
          className="rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-2.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {withBrowserChoice ? <option value="browser">{t`Browser language`}</option> : null}
          {locales.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {localeNames[locale]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * The sign-in and account pages: a signed-out person's choice is kept in this browser; someone signed in
 * (choosing a role) keeps it on their account, as in /profile.
 */
export function AccountPageLanguageSwitch() {
  const { i18n } = useLingui();
  // Read, not fetched: the account pages of a signed-out person ask the server nothing more.
  const actor = useQueryClient().getQueryData<Me | null>(actorKeys.me);
  const setLocale = useSetLocale();
  const shown = (actor && actor.locale !== "browser" ? actor.locale : storedLocale()) ?? i18n.locale;
  return (
    <LanguageSelect
      value={shown as LocaleChoice}
      onChange={(choice) =>
        actor
          ? setLocale.mutate(choice, { onError: (error) => toast.error(error.message) })
          : void chooseLocaleHere(choice)
      }
      withBrowserChoice={false}
      className="mt-6 flex justify-center"
    />
  );
}

/** /profile: kept on the person, so it follows them to other browsers. */
export function LanguageChoice({ locale }: { locale: LocaleChoice }) {
  const { t } = useLingui();
  const setLocale = useSetLocale();
  const current = setLocale.isPending && setLocale.variables ? setLocale.variables : locale;
  return (
    <>
      <LanguageSelect
        value={current}
        onChange={(choice) => setLocale.mutate(choice, { onError: (error) => toast.error(error.message) })}
        withBrowserChoice
      />
      <p className="mt-1 text-xs text-slate-500">{t`Browser language follows your browser's preferred languages.`}</p>
    </>
  );
}
