import { Trans } from "@lingui/react/macro";
import { MessageSquareText } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Link } from "#client/lib/router/links.tsx";

/**
 * The way to /canned-responses from the staff dashboards. The header's entries are fixed, so the page
 * is linked from here and from the picker instead (decision 013).
 */
export function CannedResponsesLink() {
  return (
    <Link to="/canned-responses" className={buttonClass("secondary", "sm")}>
      <MessageSquareText aria-hidden="true" className="size-4" />
      <Trans>Canned responses</Trans>
    </Link>
  );
}
