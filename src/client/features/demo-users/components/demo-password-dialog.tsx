import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { demoDefaultPassword } from "#client/features/demo-users/demo-users.ts";

export interface PasswordNotice {
  name: string;
  reason: "added" | "reset";
}

interface DemoPasswordDialogProps {
  notice: PasswordNotice;
  onClose: () => void;
}

/**
 * The demo's default password for the user just added or reset. A dialog rather than a line in the page:
 * on a phone the row that was reset is far below the top of the page, and this must be seen.
 */
export function DemoPasswordDialog({ notice, onClose }: DemoPasswordDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog title={notice.reason === "added" ? t`User added` : t`Password reset`} onClose={onClose}>
      <div className="flex flex-col gap-4 text-sm text-slate-700">
        <p>
          {notice.reason === "added"
            ? t`${notice.name} was added with the demo password`
            : t`${notice.name}'s password was reset to the demo password`}{" "}
          <code className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono font-semibold text-indigo-700 ring-1 ring-indigo-200">
            {demoDefaultPassword}
          </code>
        </p>
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          <Trans>
            Only this demo uses a default password. The real app never does: it e-mails an invitation or a
            reset link, and each person chooses their own password.
          </Trans>
        </p>
        <div className="flex justify-end">
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
