import { LifeBuoy } from "lucide-react";
import type { ReactNode } from "react";
import { AccountPageLanguageSwitch } from "#client/components/language-select.tsx";

/** The centred card that frames the account screens: Sign In, Create Account, password reset, role choice. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md py-6 sm:py-10">
      <title>{`${title} · Helpdesk`}</title>
      <div className="mb-6 flex flex-col items-center text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm">
          <LifeBuoy aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-500">{description}</p>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
      <AccountPageLanguageSwitch />
    </div>
  );
}
