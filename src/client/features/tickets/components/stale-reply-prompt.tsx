import { Trans } from "@lingui/react/macro";
import { Send, TriangleAlert } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";

/** Marks what came after the entry its writer had seen; "Show what changed" goes to the first of them. */
export const changedWhileWritingAttribute = "data-changed-while-writing";

function showFirstChange() {
  const first = document.querySelector<HTMLElement>(`[${changedWhileWritingAttribute}]`);
  first?.scrollIntoView({ block: "center" });
  first?.focus();
}

/**
 * Said in the reply box when the server refused a reply as stale (decision 072): the draft is kept, what
 * changed is marked New on the page, and the writer sends again once they have looked.
 */
export function StaleReplyPrompt({
  onSendAnyway,
  isSending,
}: {
  onSendAnyway: () => void;
  isSending: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="flex gap-2">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
        <span>
          <Trans>
            <strong className="font-semibold">This ticket changed while you were writing.</strong> Look at
            what changed (marked New), then send again. Your reply is kept.
          </Trans>
        </span>
      </p>
      <div className="flex flex-wrap gap-2 pl-6">
        <Button type="button" size="sm" variant="secondary" onClick={showFirstChange}>
          <Trans>Show what changed</Trans>
        </Button>
        <Button type="button" size="sm" variant="secondary" disabled={isSending} onClick={onSendAnyway}>
          <Send aria-hidden="true" className="size-4" />
          <Trans>Send anyway</Trans>
        </Button>
      </div>
    </div>
  );
}
