import { Trans, useLingui } from "@lingui/react/macro";
import { MapPinOff } from "lucide-react";
import { buttonClass } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";
import { Link } from "../lib/router.tsx";

/** Any path the app does not know. */
export default function NotFoundPage() {
  const { t } = useLingui();
  return (
    <Card>
      <title>{t`Page not found · Helpdesk`}</title>
      <EmptyState
        icon={MapPinOff}
        titleAs="h1"
        title={t`Page not found`}
        description={t`The address may be mistyped, or the page may have moved.`}
        action={
          <Link to="/" className={buttonClass("primary")}>
            <Trans>Go to the home page</Trans>
          </Link>
        }
      />
    </Card>
  );
}
