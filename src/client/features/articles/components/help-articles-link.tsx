import { Trans } from "@lingui/react/macro";
import { BookOpen } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Link } from "#client/lib/router/links.tsx";

/**
 * The way to /kb. The header's entries are fixed and its Knowledge Base entry keeps /Knowledge-base,
 * the app's own help, so the articles are linked from the dashboards and from that page instead.
 */
export function HelpArticlesLink() {
  return (
    <Link to="/kb" className={buttonClass("secondary", "sm")}>
      <BookOpen aria-hidden="true" className="size-4" />
      <Trans>Help articles</Trans>
    </Link>
  );
}
