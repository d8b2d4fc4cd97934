import { Trans, useLingui } from "@lingui/react/macro";
import { MapPinOff } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { Link } from "#client/lib/router/links.tsx";

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
