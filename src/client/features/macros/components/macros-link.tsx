import { Trans } from "@lingui/react/macro";
import { WandSparkles } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Link } from "#client/lib/router/links.tsx";

/** The way to /macros from the staff dashboards, beside the canned responses' (decision 075). */
export function MacrosLink() {
  return (
    <Link to="/macros" className={buttonClass("secondary", "sm")}>
      <WandSparkles aria-hidden="true" className="size-4" />
      <Trans>Macros</Trans>
    </Link>
  );
}
