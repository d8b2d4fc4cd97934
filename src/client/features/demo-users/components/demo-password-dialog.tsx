import { Button } from "../../../components/ui/button.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { demoDefaultPassword } from "../demo-users.ts";

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
  return (
    <Dialog title={notice.reason === "added" ? "User added" : "Password reset"} onClose={onClose}>
      <div className="flex flex-col gap-4 text-sm text-slate-700">
        <p>
          {notice.reason === "added"
            ? `${notice.name} was added with the demo password `
            : `${notice.name}'s password was reset to the demo password `}
          <code className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono font-semibold text-indigo-700 ring-1 ring-indigo-200">
            {demoDefaultPassword}
          </code>
        </p>
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          Only this demo uses a default password. The real app never does: it e-mails an invitation or a reset
          link, and each person chooses their own password.
        </p>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
