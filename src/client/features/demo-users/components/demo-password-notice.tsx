import { KeyRound, X } from "lucide-react";
import { demoDefaultPassword } from "../demo-users.ts";

export interface PasswordNotice {
  name: string;
  reason: "added" | "reset";
}

interface DemoPasswordNoticeProps {
  notice: PasswordNotice | null;
  onDismiss: () => void;
}

/**
 * The demo's default password for the user just added or reset. The live region stays in the page so
 * that screen readers announce each new notice.
 */
export function DemoPasswordNotice({ notice, onDismiss }: DemoPasswordNoticeProps) {
  return (
    <div role="status" aria-live="polite">
      {notice ? (
        <div className="mb-6 flex gap-3 rounded-xl border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-900">
          <KeyRound aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-indigo-600" />
          <div className="min-w-0 flex-1">
            <p className="font-medium">
              {notice.reason === "added"
                ? `${notice.name} was added with the demo password `
                : `${notice.name}'s password was reset to the demo password `}
              <code className="rounded bg-white px-1.5 py-0.5 font-mono text-indigo-700 ring-1 ring-indigo-200">
                {demoDefaultPassword}
              </code>
            </p>
            <p className="mt-1 text-indigo-800">
              Only this demo uses a default password. The real app never does: it e-mails an invitation or a
              reset link, and each person chooses their own password.
            </p>
          </div>
          <button
            type="button"
            onClick={onDismiss}
            aria-label="Dismiss password notice"
            className="h-fit rounded-lg p-1 text-indigo-500 hover:bg-indigo-100 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
