import { Trans } from "@lingui/react/macro";
import { BarChart3 } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Link } from "#client/lib/router/links.tsx";

/** The way to /reports from the staff dashboards (the header's entries are fixed). */
export function ReportsLink() {
  return (
    <Link to="/reports" className={buttonClass("secondary", "sm")}>
      <BarChart3 aria-hidden="true" className="size-4" />
      <Trans>Reports</Trans>
    </Link>
  );
}
